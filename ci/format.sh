#!/usr/bin/env bash
# Checks that the C++ lines changed since BASE (default: the parent of HEAD)
# are formatted as .clang-format says; exits 1 with the diff otherwise.
# Whole files are not reformatted: only what a change touches, so history
# stays readable. Fix with: git clang-format-22 BASE
#   ci/format.sh [BASE]
set -euo pipefail
cd "$(dirname "$0")/.."
base=${1:-HEAD~1}
if ! command -v git-clang-format-22 > /dev/null; then
  echo "ci/format.sh: git-clang-format-22 not found (ci/setup.sh installs clang-format-22)" >&2
  exit 2
fi
git rev-parse --verify -q "$base^{commit}" > /dev/null ||
  { echo "ci/format.sh: '$base' is not a commit" >&2; exit 2; }
out=$(git-clang-format-22 --binary clang-format-22 --diff --extensions c,cc,cpp,h,hpp "$base" -- \
        compiler fuzz oracles properties tools ci 2>&1) || true
case "$out" in
  *"no modified files to format"*|*"clang-format did not modify any files"*|"") exit 0 ;;
esac
echo "$out"
echo "ci/format.sh: lines changed since $base are not clang-formatted; run: git clang-format-22 $base" >&2
exit 1
