# Edits a bundle's meta.json in place: edit_meta.py DIR STATEMENT, where the
# Python statement changes the parsed document `m` (the bad-bundle tests).
import json, os, sys
p = os.path.join(sys.argv[1], "meta.json")
m = json.load(open(p))
exec(sys.argv[2])
json.dump(m, open(p, "w"), indent=2)
