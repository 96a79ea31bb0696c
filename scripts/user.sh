#!/usr/bin/env bash
# make user EMAIL=someone@example.org: prints only the new user's {"email":…,"password":…} (one
# JSON line, the generated password shown once); everything else goes to stderr.
set -euo pipefail
cd "$(dirname "$0")/.."
email="${1:-}"
if [ -z "$email" ]; then
  echo 'usage: make user EMAIL=someone@example.org' >&2
  exit 2
fi
source scripts/local-env.sh
# The CLI prints {"id","email","password"}; keep the email and the password. A refusal (exit 1,
# message on stderr) prints nothing here and fails the pipeline.
node services/auth/dist/cli/main.js users create --email "$email" --json |
  node -e 'let s="";process.stdin.on("data",(d)=>(s+=d)).on("end",()=>{if(s){const u=JSON.parse(s);console.log(JSON.stringify({email:u.email,password:u.password}))}})'
