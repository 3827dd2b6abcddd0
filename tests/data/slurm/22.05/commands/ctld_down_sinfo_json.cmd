sinfo --json
