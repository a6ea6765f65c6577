# Runs a command and succeeds only if it exits with status 1 and writes
# nothing to stdout (the artifact stream); its stderr goes to our stdout for
# FileCheck.
import subprocess, sys
r = subprocess.run(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
sys.stdout.write(r.stderr.decode(errors="replace"))
if r.returncode != 1:
    sys.stdout.write(f"expect_failure: status {r.returncode}, wanted 1\n")
    sys.exit(1)
if r.stdout:
    sys.stdout.write(f"expect_failure: {len(r.stdout)} bytes on stdout\n")
    sys.exit(1)
