#!/usr/bin/env bash
# Fails when a commit made after the rule came in (issue 44) has a subject over 100 characters: `git log --oneline`
# must stay scannable. The rule for authors is 72 (CONTRIBUTING.md, "Commits"); 100 is the line CI holds.
set -euo pipefail
# In the current directory's repository. COMMIT_SUBJECTS_SINCE and _LIMIT are for its test.
SINCE=${COMMIT_SUBJECTS_SINCE:-512a1d0} # the last commit before the rule
LIMIT=${COMMIT_SUBJECTS_LIMIT:-100}
if ! git cat-file -e "$SINCE^{commit}" 2>/dev/null; then
  echo "commit subjects: $SINCE is not in this clone (a shallow clone?); nothing to check" >&2
  exit 0
fi
# characters, not bytes (mawk's length counts bytes, and subjects hold → and ’)
long=$(git log --format='%h %s' "$SINCE..HEAD" | node -e '
  const limit = Number(process.argv[1]);
  for (const line of require("fs").readFileSync(0, "utf8").split("\n").filter(Boolean))
    if ([...line.slice(line.indexOf(" ") + 1)].length > limit) console.log(line);
' "$LIMIT")
if [ -n "$long" ]; then
  echo "commit subjects over $LIMIT characters (keep them to 72, the why in the body):" >&2
  echo "$long" >&2
  exit 1
fi
echo "commit subjects: $(git rev-list --count "$SINCE..HEAD") since $SINCE, none over $LIMIT characters"
