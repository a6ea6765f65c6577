// Layouts as a TTGIR file holds them: a multi-line alias, an alias that
// refers to another one, a trailing comment and a location alias.
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [8], warpsPerCTA = [4], order = [0]}>  // 1-D
#linear = #ttg.linear<{register = [[0, 1]],
                       lane = [[0, 2], [1, 0]],
                       warp = [], block = []}>
#slice = #ttg.slice<{dim = 1, parent = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>}>
#dot = #ttg.slice<{dim = 0, parent = #linear}>
#loc = loc("kernel.py":1:2)
module attributes {"ttg.num-warps" = 4 : i32} {
}
