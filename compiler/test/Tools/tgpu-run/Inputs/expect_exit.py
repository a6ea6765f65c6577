# Runs a command and succeeds only if it exits with the given status; the
# command's stderr goes to our stdout for FileCheck.
import subprocess, sys
want = int(sys.argv[1])
r = subprocess.run(sys.argv[2:], stderr=subprocess.PIPE, text=True)
sys.stdout.write(r.stderr)
if r.returncode != want:
    sys.stdout.write(f"expect_exit: status {r.returncode}, wanted {want}\n")
    sys.exit(1)
