# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_relay_global_optspecs
    string join \n store= project= json color= q/quiet redact-secrets allow-secrets sign sign-with= h/help V/version
end

function __fish_relay_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_relay_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_relay_using_subcommand
    set -l cmd (__fish_relay_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c relay -n "__fish_relay_needs_command" -l store -d 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here' -r -F
complete -c relay -n "__fish_relay_needs_command" -l project -d 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml' -r
complete -c relay -n "__fish_relay_needs_command" -l color -d 'When to color human output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c relay -n "__fish_relay_needs_command" -l sign-with -d 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)' -r -F
complete -c relay -n "__fish_relay_needs_command" -l json -d 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
complete -c relay -n "__fish_relay_needs_command" -s q -l quiet -d 'Print only results: no notes or warnings on stderr'
complete -c relay -n "__fish_relay_needs_command" -l redact-secrets -d 'For this command, store credentials found in the input as <REDACTED:rule-id>'
complete -c relay -n "__fish_relay_needs_command" -l allow-secrets -d 'For this command, store credentials found in the input as they are'
complete -c relay -n "__fish_relay_needs_command" -l sign -d 'Sign this command\'s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
complete -c relay -n "__fish_relay_needs_command" -s h -l help -d 'Print help'
complete -c relay -n "__fish_relay_needs_command" -s V -l version -d 'Print version'
complete -c relay -n "__fish_relay_needs_command" -f -a "init" -d 'Create a relay store (.relay/) in this folder, with a first project'
complete -c relay -n "__fish_relay_needs_command" -f -a "deposit" -d 'Record a context package: what you did, decided, left open, and who should pick it up'
complete -c relay -n "__fish_relay_needs_command" -f -a "pull" -d 'Read packages: one in full by id, the newest ones, or the most relevant to a query'
complete -c relay -n "__fish_relay_needs_command" -f -a "projects" -d 'Manage the store\'s projects'
complete -c relay -n "__fish_relay_needs_command" -f -a "facts" -d 'Track what is true now, and what was true then'
complete -c relay -n "__fish_relay_needs_command" -f -a "session" -d 'Group work into sessions with memorable callsigns (e.g. coral-heron)'
complete -c relay -n "__fish_relay_needs_command" -f -a "lesson" -d 'Record lessons learned once and needed forever, and list them'
complete -c relay -n "__fish_relay_needs_command" -f -a "checkpoint" -d 'Record where you stand (working on, decisions, blockers), or show each agent\'s latest'
complete -c relay -n "__fish_relay_needs_command" -f -a "snippet" -d 'Keep a piece of code or text as a snippet, with its path, lines and git blob id'
complete -c relay -n "__fish_relay_needs_command" -f -a "search" -d 'Find the packages most relevant to a query'
complete -c relay -n "__fish_relay_needs_command" -f -a "index" -d 'Build the search indexes and the vectors of search by meaning now'
complete -c relay -n "__fish_relay_needs_command" -f -a "orient" -d 'Brief a new session: latest handoff, recent work, open questions, active facts'
complete -c relay -n "__fish_relay_needs_command" -f -a "orchestrate" -d 'Assemble a digest of recent work for an agent to synthesise (relay runs no LLM)'
complete -c relay -n "__fish_relay_needs_command" -f -a "review" -d 'Put packages through review: flag, approve, request changes, list'
complete -c relay -n "__fish_relay_needs_command" -f -a "retract" -d 'Take back a package or a fact: reads stop showing it, its history keeps it'
complete -c relay -n "__fish_relay_needs_command" -f -a "purge" -d 'Remove expired or retracted records from the logs (the one command that rewrites them)'
complete -c relay -n "__fish_relay_needs_command" -f -a "status" -d 'Summarise the store: projects, package counts, reviews, facts, sessions, size, warnings'
complete -c relay -n "__fish_relay_needs_command" -f -a "export" -d 'Back up projects as plain wire records (offline, restorable anywhere)'
complete -c relay -n "__fish_relay_needs_command" -f -a "import" -d 'Restore records: a backup folder, an NDJSON stream, or another store\'s .relay/ folder'
complete -c relay -n "__fish_relay_needs_command" -f -a "verify" -d 'Check every line of the store; with --fix, repair what is safe'
complete -c relay -n "__fish_relay_needs_command" -f -a "doctor" -d 'Check the whole setup end to end, and say how to fix what is wrong'
complete -c relay -n "__fish_relay_needs_command" -f -a "resolve" -d 'Finish a git merge that left store files unmerged (an octopus merge)'
complete -c relay -n "__fish_relay_needs_command" -f -a "merge" -d 'Merge several branches at once, keeping every side\'s store records'
complete -c relay -n "__fish_relay_needs_command" -f -a "keys" -d 'Make signing keys and list who may sign (.relay/allowed_signers)'
complete -c relay -n "__fish_relay_needs_command" -f -a "hook" -d 'Hook relay into git and coding agents (Claude Code, Codex, Gemini CLI, Cursor, OpenCode)'
complete -c relay -n "__fish_relay_needs_command" -f -a "scan" -d 'Look for credentials in the store: every line, every version'
complete -c relay -n "__fish_relay_needs_command" -f -a "conformance" -d 'Print the conformance descriptor (§11.5), or check a server\'s conformance (--check URL)'
complete -c relay -n "__fish_relay_needs_command" -f -a "completions" -d 'Print a shell completion script'
complete -c relay -n "__fish_relay_needs_command" -f -a "onboard" -d 'Print the block that teaches coding agents to use relay (for AGENTS.md, CLAUDE.md)'
complete -c relay -n "__fish_relay_needs_command" -f -a "mcp" -d 'Serve relay to AI agents over the Model Context Protocol (MCP), on stdin and stdout'
complete -c relay -n "__fish_relay_needs_command" -f -a "watch" -d 'Print records as they are appended to the store, until interrupted'
complete -c relay -n "__fish_relay_needs_command" -f -a "serve" -d 'Serve the store over HTTP: the Agentic Protocol\'s HTTP mapping (§9.1), with bearer tokens'
complete -c relay -n "__fish_relay_needs_command" -f -a "token" -d 'Make, list, narrow and revoke the bearer tokens of `relay serve`'
complete -c relay -n "__fish_relay_needs_command" -f -a "ui" -d 'Open the web console: timeline, search, facts, the review queue and orient, in a browser'
complete -c relay -n "__fish_relay_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c relay -n "__fish_relay_using_subcommand init" -l name -d 'A display name for the project' -r
complete -c relay -n "__fish_relay_using_subcommand init" -l sign-with -d 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)' -r -F
complete -c relay -n "__fish_relay_using_subcommand init" -l store -d 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here' -r -F
complete -c relay -n "__fish_relay_using_subcommand init" -l project -d 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml' -r
complete -c relay -n "__fish_relay_using_subcommand init" -l color -d 'When to color human output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c relay -n "__fish_relay_using_subcommand init" -l local -d 'Make a private store that git never sees (listed in .git/info/exclude, not committed)'
complete -c relay -n "__fish_relay_using_subcommand init" -l redact-secrets -d 'For this command, store credentials found in the input as <REDACTED:rule-id>'
complete -c relay -n "__fish_relay_using_subcommand init" -l allow-secrets -d 'For this command, store credentials found in the input as they are'
complete -c relay -n "__fish_relay_using_subcommand init" -l sign -d 'Sign this command\'s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
complete -c relay -n "__fish_relay_using_subcommand init" -l json -d 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
complete -c relay -n "__fish_relay_using_subcommand init" -s q -l quiet -d 'Print only results: no notes or warnings on stderr'
complete -c relay -n "__fish_relay_using_subcommand init" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c relay -n "__fish_relay_using_subcommand init" -s V -l version -d 'Print version'
complete -c relay -n "__fish_relay_using_subcommand deposit" -l title -d 'One-line summary (1–200 characters)' -r
complete -c relay -n "__fish_relay_using_subcommand deposit" -l description -d 'Longer prose' -r
complete -c relay -n "__fish_relay_using_subcommand deposit" -l type -d 'Package type: standard, milestone, decision, handoff, auto_deposit, analysis, question, orchestrator_report, or an x-* extension' -r
complete -c relay -n "__fish_relay_using_subcommand deposit" -l status -d 'Lifecycle status (default: complete)' -r -f -a "draft\t''
complete\t''
awaiting_review\t''
revision_requested\t''"
complete -c relay -n "__fish_relay_using_subcommand deposit" -l review -d 'Who must review it (default: none)' -r -f -a "none\t''
human\t''
agent\t''"
complete -c relay -n "__fish_relay_using_subcommand deposit" -l tag -d 'A label (repeatable)' -r
complete -c relay -n "__fish_relay_using_subcommand deposit" -l decision -d 'A decision made (repeatable)' -r
complete -c relay -n "__fish_relay_using_subcommand deposit" -l question -d 'An open question (repeatable)' -r
complete -c relay -n "__fish_relay_using_subcommand deposit" -l handoff -d 'Guidance for whoever picks this up next' -r
complete -c relay -n "__fish_relay_using_subcommand deposit" -l next-actor -d 'Who should pick it up next' -r -f -a "human\t''
agent\t''"
complete -c relay -n "__fish_relay_using_subcommand deposit" -l deliverable -d 'A file, folder or URL produced (repeatable); files get their sha256 and size recorded' -r
complete -c relay -n "__fish_relay_using_subcommand deposit" -l parent -d 'The package this one corrects or extends' -r
complete -c relay -n "__fish_relay_using_subcommand deposit" -l significance -d '1 (noise) to 10 (critical); default 5' -r
complete -c relay -n "__fish_relay_using_subcommand deposit" -l topic -d 'Subject area, e.g. retrieval' -r
complete -c relay -n "__fish_relay_using_subcommand deposit" -l artifact-type -d 'A narrower type hint than --type' -r
complete -c relay -n "__fish_relay_using_subcommand deposit" -l content-md -d 'A Markdown body, read from FILE or - (stdin)' -r
complete -c relay -n "__fish_relay_using_subcommand deposit" -l ext -d 'An x-* extension field (repeatable); VALUE is parsed as JSON when it parses, else a string' -r
complete -c relay -n "__fish_relay_using_subcommand deposit" -l from -d 'Read a whole or partial wire package (JSON) from FILE or - (stdin)' -r
complete -c relay -n "__fish_relay_using_subcommand deposit" -l id -d 'Use this package_id instead of a new one (makes retries idempotent)' -r
complete -c relay -n "__fish_relay_using_subcommand deposit" -l expires-at -d 'Hide the record from reads from TIME on (RFC 3339 or a date; it must be in the future)' -r
complete -c relay -n "__fish_relay_using_subcommand deposit" -l ttl -d 'Hide the record from reads once this span has passed: 90m, 12h, 30d, 2w' -r
complete -c relay -n "__fish_relay_using_subcommand deposit" -l actor -d 'Who is acting; default: [actor] id in config, then git user.email, then $USER' -r
complete -c relay -n "__fish_relay_using_subcommand deposit" -l actor-type -d 'What kind of actor' -r -f -a "human\t''
agent\t''
script\t''"
complete -c relay -n "__fish_relay_using_subcommand deposit" -l session -d 'The session (id or callsign) to record; default: this clone\'s current session' -r
complete -c relay -n "__fish_relay_using_subcommand deposit" -l sign-with -d 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)' -r -F
complete -c relay -n "__fish_relay_using_subcommand deposit" -l store -d 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here' -r -F
complete -c relay -n "__fish_relay_using_subcommand deposit" -l project -d 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml' -r
complete -c relay -n "__fish_relay_using_subcommand deposit" -l color -d 'When to color human output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c relay -n "__fish_relay_using_subcommand deposit" -l strict -d 'Take the package as the Agentic Protocol does (§8.1), as `relay serve` does: every required member given (package_id, project_id, relay_version, title, status, package_type, review_type, created_at, created_by), usually with --from; relay fills nothing in, and a package missing one is refused (invalid_schema)'
complete -c relay -n "__fish_relay_using_subcommand deposit" -l auto -d 'For hooks: record the new commit, or else the uncommitted changes, or nothing if nothing is new. Never fails: problems go to stderr and the exit code is 0'
complete -c relay -n "__fish_relay_using_subcommand deposit" -l queue -d 'With --auto, for git hooks: write into this clone\'s queue (.relay/local/pending/, which git never sees) instead of the tracked logs; reads see it at once, and the pre-commit hook (`relay hook flush --stage`) moves it into the store with the next commit. A local store, or one outside git, is written directly'
complete -c relay -n "__fish_relay_using_subcommand deposit" -l redact-secrets -d 'For this command, store credentials found in the input as <REDACTED:rule-id>'
complete -c relay -n "__fish_relay_using_subcommand deposit" -l allow-secrets -d 'For this command, store credentials found in the input as they are'
complete -c relay -n "__fish_relay_using_subcommand deposit" -l sign -d 'Sign this command\'s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
complete -c relay -n "__fish_relay_using_subcommand deposit" -l json -d 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
complete -c relay -n "__fish_relay_using_subcommand deposit" -s q -l quiet -d 'Print only results: no notes or warnings on stderr'
complete -c relay -n "__fish_relay_using_subcommand deposit" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c relay -n "__fish_relay_using_subcommand deposit" -s V -l version -d 'Print version'
complete -c relay -n "__fish_relay_using_subcommand pull" -l latest -d 'List the N newest packages' -r
complete -c relay -n "__fish_relay_using_subcommand pull" -l relevant -d 'Rank packages by relevance to QUERY (words and "quoted phrases")' -r
complete -c relay -n "__fish_relay_using_subcommand pull" -l limit -d 'How many packages: the newest (as --latest N) or the best matches of --relevant' -r
complete -c relay -n "__fish_relay_using_subcommand pull" -l type -d 'Only this package type (repeatable: any of them)' -r
complete -c relay -n "__fish_relay_using_subcommand pull" -l tag -d 'Only packages with this tag (repeatable: all of them)' -r
complete -c relay -n "__fish_relay_using_subcommand pull" -l created-by -l actor -d 'Only packages created by this actor id (`created_by` on MCP and HTTP)' -r
complete -c relay -n "__fish_relay_using_subcommand pull" -l status -d 'Only packages in this status' -r -f -a "draft\t''
complete\t''
awaiting_review\t''
revision_requested\t''"
complete -c relay -n "__fish_relay_using_subcommand pull" -l since -d 'Only packages created at or after TIME' -r
complete -c relay -n "__fish_relay_using_subcommand pull" -l until -d 'Only packages created before TIME' -r
complete -c relay -n "__fish_relay_using_subcommand pull" -l as-of -d 'Read the store as it stood at TIME: packages created by then, at the review version current then; retractions and expiry as of then' -r
complete -c relay -n "__fish_relay_using_subcommand pull" -l mode -l search -d 'keyword (BM25 over the words), semantic (similarity of meaning, with an embedding model) or hybrid (both lists fused by rank). Default: hybrid when a model is configured, else keyword (`search` on MCP and HTTP)' -r -f -a "keyword\t''
semantic\t''
hybrid\t''"
complete -c relay -n "__fish_relay_using_subcommand pull" -l model -d 'The embedding model\'s folder (a Model2Vec static model: config.json, model.safetensors, tokenizer.json; with query/, the transformer that embeds queries, as scripts/fetch-model.sh makes it); else `[search] model` in .relay/config.toml' -r -F
complete -c relay -n "__fish_relay_using_subcommand pull" -l sign-with -d 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)' -r -F
complete -c relay -n "__fish_relay_using_subcommand pull" -l store -d 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here' -r -F
complete -c relay -n "__fish_relay_using_subcommand pull" -l project -d 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml' -r
complete -c relay -n "__fish_relay_using_subcommand pull" -l color -d 'When to color human output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c relay -n "__fish_relay_using_subcommand pull" -l history -d 'With PACKAGE_ID: every stored version, with its transition (who, when, note)'
complete -c relay -n "__fish_relay_using_subcommand pull" -l all-projects -d 'Cover every project, not just the selected one'
complete -c relay -n "__fish_relay_using_subcommand pull" -l include-expired -d 'Show packages whose x-expires-at has passed (hidden otherwise)'
complete -c relay -n "__fish_relay_using_subcommand pull" -l include-retracted -d 'Show packages that `relay retract` has retracted (hidden otherwise)'
complete -c relay -n "__fish_relay_using_subcommand pull" -l redact-secrets -d 'For this command, store credentials found in the input as <REDACTED:rule-id>'
complete -c relay -n "__fish_relay_using_subcommand pull" -l allow-secrets -d 'For this command, store credentials found in the input as they are'
complete -c relay -n "__fish_relay_using_subcommand pull" -l sign -d 'Sign this command\'s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
complete -c relay -n "__fish_relay_using_subcommand pull" -l json -d 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
complete -c relay -n "__fish_relay_using_subcommand pull" -s q -l quiet -d 'Print only results: no notes or warnings on stderr'
complete -c relay -n "__fish_relay_using_subcommand pull" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c relay -n "__fish_relay_using_subcommand pull" -s V -l version -d 'Print version'
complete -c relay -n "__fish_relay_using_subcommand projects; and not __fish_seen_subcommand_from list create info rename archive unarchive help" -l sign-with -d 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)' -r -F
complete -c relay -n "__fish_relay_using_subcommand projects; and not __fish_seen_subcommand_from list create info rename archive unarchive help" -l store -d 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here' -r -F
complete -c relay -n "__fish_relay_using_subcommand projects; and not __fish_seen_subcommand_from list create info rename archive unarchive help" -l project -d 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml' -r
complete -c relay -n "__fish_relay_using_subcommand projects; and not __fish_seen_subcommand_from list create info rename archive unarchive help" -l color -d 'When to color human output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c relay -n "__fish_relay_using_subcommand projects; and not __fish_seen_subcommand_from list create info rename archive unarchive help" -l redact-secrets -d 'For this command, store credentials found in the input as <REDACTED:rule-id>'
complete -c relay -n "__fish_relay_using_subcommand projects; and not __fish_seen_subcommand_from list create info rename archive unarchive help" -l allow-secrets -d 'For this command, store credentials found in the input as they are'
complete -c relay -n "__fish_relay_using_subcommand projects; and not __fish_seen_subcommand_from list create info rename archive unarchive help" -l sign -d 'Sign this command\'s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
complete -c relay -n "__fish_relay_using_subcommand projects; and not __fish_seen_subcommand_from list create info rename archive unarchive help" -l json -d 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
complete -c relay -n "__fish_relay_using_subcommand projects; and not __fish_seen_subcommand_from list create info rename archive unarchive help" -s q -l quiet -d 'Print only results: no notes or warnings on stderr'
complete -c relay -n "__fish_relay_using_subcommand projects; and not __fish_seen_subcommand_from list create info rename archive unarchive help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c relay -n "__fish_relay_using_subcommand projects; and not __fish_seen_subcommand_from list create info rename archive unarchive help" -s V -l version -d 'Print version'
complete -c relay -n "__fish_relay_using_subcommand projects; and not __fish_seen_subcommand_from list create info rename archive unarchive help" -f -a "list" -d 'List every project (NDJSON of project records with --json)'
complete -c relay -n "__fish_relay_using_subcommand projects; and not __fish_seen_subcommand_from list create info rename archive unarchive help" -f -a "create" -d 'Create a project'
complete -c relay -n "__fish_relay_using_subcommand projects; and not __fish_seen_subcommand_from list create info rename archive unarchive help" -f -a "info" -d 'Show one project and how many packages it holds'
complete -c relay -n "__fish_relay_using_subcommand projects; and not __fish_seen_subcommand_from list create info rename archive unarchive help" -f -a "rename" -d 'Give a project a new display name (its id never changes)'
complete -c relay -n "__fish_relay_using_subcommand projects; and not __fish_seen_subcommand_from list create info rename archive unarchive help" -f -a "archive" -d 'Archive a project: it stays readable, but refuses deposits'
complete -c relay -n "__fish_relay_using_subcommand projects; and not __fish_seen_subcommand_from list create info rename archive unarchive help" -f -a "unarchive" -d 'Undo an archive'
complete -c relay -n "__fish_relay_using_subcommand projects; and not __fish_seen_subcommand_from list create info rename archive unarchive help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c relay -n "__fish_relay_using_subcommand projects; and __fish_seen_subcommand_from list" -l sign-with -d 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)' -r -F
complete -c relay -n "__fish_relay_using_subcommand projects; and __fish_seen_subcommand_from list" -l store -d 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here' -r -F
complete -c relay -n "__fish_relay_using_subcommand projects; and __fish_seen_subcommand_from list" -l project -d 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml' -r
complete -c relay -n "__fish_relay_using_subcommand projects; and __fish_seen_subcommand_from list" -l color -d 'When to color human output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c relay -n "__fish_relay_using_subcommand projects; and __fish_seen_subcommand_from list" -l redact-secrets -d 'For this command, store credentials found in the input as <REDACTED:rule-id>'
complete -c relay -n "__fish_relay_using_subcommand projects; and __fish_seen_subcommand_from list" -l allow-secrets -d 'For this command, store credentials found in the input as they are'
complete -c relay -n "__fish_relay_using_subcommand projects; and __fish_seen_subcommand_from list" -l sign -d 'Sign this command\'s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
complete -c relay -n "__fish_relay_using_subcommand projects; and __fish_seen_subcommand_from list" -l json -d 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
complete -c relay -n "__fish_relay_using_subcommand projects; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Print only results: no notes or warnings on stderr'
complete -c relay -n "__fish_relay_using_subcommand projects; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c relay -n "__fish_relay_using_subcommand projects; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c relay -n "__fish_relay_using_subcommand projects; and __fish_seen_subcommand_from create" -l name -d 'A display name (default: the id)' -r
complete -c relay -n "__fish_relay_using_subcommand projects; and __fish_seen_subcommand_from create" -l description -d 'A longer description' -r
complete -c relay -n "__fish_relay_using_subcommand projects; and __fish_seen_subcommand_from create" -l sign-with -d 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)' -r -F
complete -c relay -n "__fish_relay_using_subcommand projects; and __fish_seen_subcommand_from create" -l store -d 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here' -r -F
complete -c relay -n "__fish_relay_using_subcommand projects; and __fish_seen_subcommand_from create" -l project -d 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml' -r
complete -c relay -n "__fish_relay_using_subcommand projects; and __fish_seen_subcommand_from create" -l color -d 'When to color human output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c relay -n "__fish_relay_using_subcommand projects; and __fish_seen_subcommand_from create" -l redact-secrets -d 'For this command, store credentials found in the input as <REDACTED:rule-id>'
complete -c relay -n "__fish_relay_using_subcommand projects; and __fish_seen_subcommand_from create" -l allow-secrets -d 'For this command, store credentials found in the input as they are'
complete -c relay -n "__fish_relay_using_subcommand projects; and __fish_seen_subcommand_from create" -l sign -d 'Sign this command\'s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
complete -c relay -n "__fish_relay_using_subcommand projects; and __fish_seen_subcommand_from create" -l json -d 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
complete -c relay -n "__fish_relay_using_subcommand projects; and __fish_seen_subcommand_from create" -s q -l quiet -d 'Print only results: no notes or warnings on stderr'
complete -c relay -n "__fish_relay_using_subcommand projects; and __fish_seen_subcommand_from create" -s h -l help -d 'Print help'
complete -c relay -n "__fish_relay_using_subcommand projects; and __fish_seen_subcommand_from create" -s V -l version -d 'Print version'
complete -c relay -n "__fish_relay_using_subcommand projects; and __fish_seen_subcommand_from info" -l sign-with -d 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)' -r -F
complete -c relay -n "__fish_relay_using_subcommand projects; and __fish_seen_subcommand_from info" -l store -d 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here' -r -F
complete -c relay -n "__fish_relay_using_subcommand projects; and __fish_seen_subcommand_from info" -l project -d 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml' -r
complete -c relay -n "__fish_relay_using_subcommand projects; and __fish_seen_subcommand_from info" -l color -d 'When to color human output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c relay -n "__fish_relay_using_subcommand projects; and __fish_seen_subcommand_from info" -l redact-secrets -d 'For this command, store credentials found in the input as <REDACTED:rule-id>'
complete -c relay -n "__fish_relay_using_subcommand projects; and __fish_seen_subcommand_from info" -l allow-secrets -d 'For this command, store credentials found in the input as they are'
complete -c relay -n "__fish_relay_using_subcommand projects; and __fish_seen_subcommand_from info" -l sign -d 'Sign this command\'s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
complete -c relay -n "__fish_relay_using_subcommand projects; and __fish_seen_subcommand_from info" -l json -d 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
complete -c relay -n "__fish_relay_using_subcommand projects; and __fish_seen_subcommand_from info" -s q -l quiet -d 'Print only results: no notes or warnings on stderr'
complete -c relay -n "__fish_relay_using_subcommand projects; and __fish_seen_subcommand_from info" -s h -l help -d 'Print help'
complete -c relay -n "__fish_relay_using_subcommand projects; and __fish_seen_subcommand_from info" -s V -l version -d 'Print version'
complete -c relay -n "__fish_relay_using_subcommand projects; and __fish_seen_subcommand_from rename" -l sign-with -d 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)' -r -F
complete -c relay -n "__fish_relay_using_subcommand projects; and __fish_seen_subcommand_from rename" -l store -d 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here' -r -F
complete -c relay -n "__fish_relay_using_subcommand projects; and __fish_seen_subcommand_from rename" -l project -d 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml' -r
complete -c relay -n "__fish_relay_using_subcommand projects; and __fish_seen_subcommand_from rename" -l color -d 'When to color human output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c relay -n "__fish_relay_using_subcommand projects; and __fish_seen_subcommand_from rename" -l redact-secrets -d 'For this command, store credentials found in the input as <REDACTED:rule-id>'
complete -c relay -n "__fish_relay_using_subcommand projects; and __fish_seen_subcommand_from rename" -l allow-secrets -d 'For this command, store credentials found in the input as they are'
complete -c relay -n "__fish_relay_using_subcommand projects; and __fish_seen_subcommand_from rename" -l sign -d 'Sign this command\'s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
complete -c relay -n "__fish_relay_using_subcommand projects; and __fish_seen_subcommand_from rename" -l json -d 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
complete -c relay -n "__fish_relay_using_subcommand projects; and __fish_seen_subcommand_from rename" -s q -l quiet -d 'Print only results: no notes or warnings on stderr'
complete -c relay -n "__fish_relay_using_subcommand projects; and __fish_seen_subcommand_from rename" -s h -l help -d 'Print help'
complete -c relay -n "__fish_relay_using_subcommand projects; and __fish_seen_subcommand_from rename" -s V -l version -d 'Print version'
complete -c relay -n "__fish_relay_using_subcommand projects; and __fish_seen_subcommand_from archive" -l sign-with -d 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)' -r -F
complete -c relay -n "__fish_relay_using_subcommand projects; and __fish_seen_subcommand_from archive" -l store -d 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here' -r -F
complete -c relay -n "__fish_relay_using_subcommand projects; and __fish_seen_subcommand_from archive" -l project -d 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml' -r
complete -c relay -n "__fish_relay_using_subcommand projects; and __fish_seen_subcommand_from archive" -l color -d 'When to color human output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c relay -n "__fish_relay_using_subcommand projects; and __fish_seen_subcommand_from archive" -l redact-secrets -d 'For this command, store credentials found in the input as <REDACTED:rule-id>'
complete -c relay -n "__fish_relay_using_subcommand projects; and __fish_seen_subcommand_from archive" -l allow-secrets -d 'For this command, store credentials found in the input as they are'
complete -c relay -n "__fish_relay_using_subcommand projects; and __fish_seen_subcommand_from archive" -l sign -d 'Sign this command\'s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
complete -c relay -n "__fish_relay_using_subcommand projects; and __fish_seen_subcommand_from archive" -l json -d 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
complete -c relay -n "__fish_relay_using_subcommand projects; and __fish_seen_subcommand_from archive" -s q -l quiet -d 'Print only results: no notes or warnings on stderr'
complete -c relay -n "__fish_relay_using_subcommand projects; and __fish_seen_subcommand_from archive" -s h -l help -d 'Print help'
complete -c relay -n "__fish_relay_using_subcommand projects; and __fish_seen_subcommand_from archive" -s V -l version -d 'Print version'
complete -c relay -n "__fish_relay_using_subcommand projects; and __fish_seen_subcommand_from unarchive" -l sign-with -d 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)' -r -F
complete -c relay -n "__fish_relay_using_subcommand projects; and __fish_seen_subcommand_from unarchive" -l store -d 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here' -r -F
complete -c relay -n "__fish_relay_using_subcommand projects; and __fish_seen_subcommand_from unarchive" -l project -d 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml' -r
complete -c relay -n "__fish_relay_using_subcommand projects; and __fish_seen_subcommand_from unarchive" -l color -d 'When to color human output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c relay -n "__fish_relay_using_subcommand projects; and __fish_seen_subcommand_from unarchive" -l redact-secrets -d 'For this command, store credentials found in the input as <REDACTED:rule-id>'
complete -c relay -n "__fish_relay_using_subcommand projects; and __fish_seen_subcommand_from unarchive" -l allow-secrets -d 'For this command, store credentials found in the input as they are'
complete -c relay -n "__fish_relay_using_subcommand projects; and __fish_seen_subcommand_from unarchive" -l sign -d 'Sign this command\'s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
complete -c relay -n "__fish_relay_using_subcommand projects; and __fish_seen_subcommand_from unarchive" -l json -d 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
complete -c relay -n "__fish_relay_using_subcommand projects; and __fish_seen_subcommand_from unarchive" -s q -l quiet -d 'Print only results: no notes or warnings on stderr'
complete -c relay -n "__fish_relay_using_subcommand projects; and __fish_seen_subcommand_from unarchive" -s h -l help -d 'Print help'
complete -c relay -n "__fish_relay_using_subcommand projects; and __fish_seen_subcommand_from unarchive" -s V -l version -d 'Print version'
complete -c relay -n "__fish_relay_using_subcommand projects; and __fish_seen_subcommand_from help" -f -a "list" -d 'List every project (NDJSON of project records with --json)'
complete -c relay -n "__fish_relay_using_subcommand projects; and __fish_seen_subcommand_from help" -f -a "create" -d 'Create a project'
complete -c relay -n "__fish_relay_using_subcommand projects; and __fish_seen_subcommand_from help" -f -a "info" -d 'Show one project and how many packages it holds'
complete -c relay -n "__fish_relay_using_subcommand projects; and __fish_seen_subcommand_from help" -f -a "rename" -d 'Give a project a new display name (its id never changes)'
complete -c relay -n "__fish_relay_using_subcommand projects; and __fish_seen_subcommand_from help" -f -a "archive" -d 'Archive a project: it stays readable, but refuses deposits'
complete -c relay -n "__fish_relay_using_subcommand projects; and __fish_seen_subcommand_from help" -f -a "unarchive" -d 'Undo an archive'
complete -c relay -n "__fish_relay_using_subcommand projects; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c relay -n "__fish_relay_using_subcommand facts; and not __fish_seen_subcommand_from assert invalidate get list history help" -l sign-with -d 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)' -r -F
complete -c relay -n "__fish_relay_using_subcommand facts; and not __fish_seen_subcommand_from assert invalidate get list history help" -l store -d 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here' -r -F
complete -c relay -n "__fish_relay_using_subcommand facts; and not __fish_seen_subcommand_from assert invalidate get list history help" -l project -d 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml' -r
complete -c relay -n "__fish_relay_using_subcommand facts; and not __fish_seen_subcommand_from assert invalidate get list history help" -l color -d 'When to color human output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c relay -n "__fish_relay_using_subcommand facts; and not __fish_seen_subcommand_from assert invalidate get list history help" -l redact-secrets -d 'For this command, store credentials found in the input as <REDACTED:rule-id>'
complete -c relay -n "__fish_relay_using_subcommand facts; and not __fish_seen_subcommand_from assert invalidate get list history help" -l allow-secrets -d 'For this command, store credentials found in the input as they are'
complete -c relay -n "__fish_relay_using_subcommand facts; and not __fish_seen_subcommand_from assert invalidate get list history help" -l sign -d 'Sign this command\'s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
complete -c relay -n "__fish_relay_using_subcommand facts; and not __fish_seen_subcommand_from assert invalidate get list history help" -l json -d 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
complete -c relay -n "__fish_relay_using_subcommand facts; and not __fish_seen_subcommand_from assert invalidate get list history help" -s q -l quiet -d 'Print only results: no notes or warnings on stderr'
complete -c relay -n "__fish_relay_using_subcommand facts; and not __fish_seen_subcommand_from assert invalidate get list history help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c relay -n "__fish_relay_using_subcommand facts; and not __fish_seen_subcommand_from assert invalidate get list history help" -s V -l version -d 'Print version'
complete -c relay -n "__fish_relay_using_subcommand facts; and not __fish_seen_subcommand_from assert invalidate get list history help" -f -a "assert" -d 'Record a value, superseding the current one (a no-op only if the value, confidence, source, tags and start are all already current)'
complete -c relay -n "__fish_relay_using_subcommand facts; and not __fish_seen_subcommand_from assert invalidate get list history help" -f -a "invalidate" -d 'End the current fact(s) of a key without a replacement; prints how many ended'
complete -c relay -n "__fish_relay_using_subcommand facts; and not __fish_seen_subcommand_from assert invalidate get list history help" -f -a "get" -d 'The current value of a key, or the one valid at --at (exit 1 if none)'
complete -c relay -n "__fish_relay_using_subcommand facts; and not __fish_seen_subcommand_from assert invalidate get list history help" -f -a "list" -d 'Current facts (one per subject and predicate), filtered'
complete -c relay -n "__fish_relay_using_subcommand facts; and not __fish_seen_subcommand_from assert invalidate get list history help" -f -a "history" -d 'Every value a key has had, oldest first'
complete -c relay -n "__fish_relay_using_subcommand facts; and not __fish_seen_subcommand_from assert invalidate get list history help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from assert" -l source -d 'The package this fact comes from (its id, or the start of it); its author becomes the fact\'s asserted_by' -r
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from assert" -l confidence -d 'How sure, from 0 to 1 (default 1)' -r
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from assert" -l tag -d 'A label (repeatable)' -r
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from assert" -l valid-from -d 'When it became true (default: now); not before the current fact\'s valid_from' -r
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from assert" -l field -d 'An extension member the fact keeps (§12.1), KEY named x-*; VALUE is read as JSON when it parses (30, true, ["a"]), else as text (repeatable)' -r
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from assert" -l expires-at -d 'Hide the record from reads from TIME on (RFC 3339 or a date; it must be in the future)' -r
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from assert" -l ttl -d 'Hide the record from reads once this span has passed: 90m, 12h, 30d, 2w' -r
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from assert" -l actor -d 'Who is acting; default: [actor] id in config, then git user.email, then $USER' -r
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from assert" -l actor-type -d 'What kind of actor' -r -f -a "human\t''
agent\t''
script\t''"
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from assert" -l session -d 'The session (id or callsign) to record; default: this clone\'s current session' -r
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from assert" -l sign-with -d 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)' -r -F
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from assert" -l store -d 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here' -r -F
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from assert" -l project -d 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml' -r
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from assert" -l color -d 'When to color human output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from assert" -l redact-secrets -d 'For this command, store credentials found in the input as <REDACTED:rule-id>'
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from assert" -l allow-secrets -d 'For this command, store credentials found in the input as they are'
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from assert" -l sign -d 'Sign this command\'s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from assert" -l json -d 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from assert" -s q -l quiet -d 'Print only results: no notes or warnings on stderr'
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from assert" -s h -l help -d 'Print help'
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from assert" -s V -l version -d 'Print version'
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from invalidate" -l sign-with -d 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)' -r -F
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from invalidate" -l store -d 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here' -r -F
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from invalidate" -l project -d 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml' -r
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from invalidate" -l color -d 'When to color human output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from invalidate" -l redact-secrets -d 'For this command, store credentials found in the input as <REDACTED:rule-id>'
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from invalidate" -l allow-secrets -d 'For this command, store credentials found in the input as they are'
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from invalidate" -l sign -d 'Sign this command\'s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from invalidate" -l json -d 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from invalidate" -s q -l quiet -d 'Print only results: no notes or warnings on stderr'
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from invalidate" -s h -l help -d 'Print help'
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from invalidate" -s V -l version -d 'Print version'
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from get" -l at -r
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from get" -l sign-with -d 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)' -r -F
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from get" -l store -d 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here' -r -F
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from get" -l project -d 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml' -r
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from get" -l color -d 'When to color human output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from get" -l include-expired -d 'Show facts whose x-expires-at has passed (hidden otherwise)'
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from get" -l include-retracted -d 'Show facts that `relay retract` has retracted (hidden otherwise)'
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from get" -l redact-secrets -d 'For this command, store credentials found in the input as <REDACTED:rule-id>'
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from get" -l allow-secrets -d 'For this command, store credentials found in the input as they are'
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from get" -l sign -d 'Sign this command\'s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from get" -l json -d 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from get" -s q -l quiet -d 'Print only results: no notes or warnings on stderr'
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from get" -s h -l help -d 'Print help'
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from get" -s V -l version -d 'Print version'
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from list" -l subject -r
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from list" -l predicate -r
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from list" -l tag -r
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from list" -l at -d 'The facts valid at TIME instead of now' -r
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from list" -l as-of -d 'The facts as the store stood at TIME: recorded by then and valid then (unlike --at, facts recorded since with an earlier valid_from are left out)' -r
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from list" -l sign-with -d 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)' -r -F
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from list" -l store -d 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here' -r -F
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from list" -l project -d 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml' -r
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from list" -l color -d 'When to color human output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from list" -l include-ended -d 'Every fact, ended ones included'
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from list" -l include-expired -d 'Show facts whose x-expires-at has passed (hidden otherwise)'
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from list" -l include-retracted -d 'Show facts that `relay retract` has retracted (hidden otherwise)'
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from list" -l redact-secrets -d 'For this command, store credentials found in the input as <REDACTED:rule-id>'
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from list" -l allow-secrets -d 'For this command, store credentials found in the input as they are'
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from list" -l sign -d 'Sign this command\'s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from list" -l json -d 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Print only results: no notes or warnings on stderr'
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from history" -l sign-with -d 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)' -r -F
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from history" -l store -d 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here' -r -F
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from history" -l project -d 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml' -r
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from history" -l color -d 'When to color human output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from history" -l include-expired -d 'Show facts whose x-expires-at has passed (hidden otherwise)'
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from history" -l include-retracted -d 'Show facts that `relay retract` has retracted (hidden otherwise)'
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from history" -l redact-secrets -d 'For this command, store credentials found in the input as <REDACTED:rule-id>'
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from history" -l allow-secrets -d 'For this command, store credentials found in the input as they are'
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from history" -l sign -d 'Sign this command\'s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from history" -l json -d 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from history" -s q -l quiet -d 'Print only results: no notes or warnings on stderr'
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from history" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from history" -s V -l version -d 'Print version'
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from help" -f -a "assert" -d 'Record a value, superseding the current one (a no-op only if the value, confidence, source, tags and start are all already current)'
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from help" -f -a "invalidate" -d 'End the current fact(s) of a key without a replacement; prints how many ended'
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from help" -f -a "get" -d 'The current value of a key, or the one valid at --at (exit 1 if none)'
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from help" -f -a "list" -d 'Current facts (one per subject and predicate), filtered'
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from help" -f -a "history" -d 'Every value a key has had, oldest first'
complete -c relay -n "__fish_relay_using_subcommand facts; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c relay -n "__fish_relay_using_subcommand session; and not __fish_seen_subcommand_from start end status list show help" -l sign-with -d 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)' -r -F
complete -c relay -n "__fish_relay_using_subcommand session; and not __fish_seen_subcommand_from start end status list show help" -l store -d 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here' -r -F
complete -c relay -n "__fish_relay_using_subcommand session; and not __fish_seen_subcommand_from start end status list show help" -l project -d 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml' -r
complete -c relay -n "__fish_relay_using_subcommand session; and not __fish_seen_subcommand_from start end status list show help" -l color -d 'When to color human output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c relay -n "__fish_relay_using_subcommand session; and not __fish_seen_subcommand_from start end status list show help" -l redact-secrets -d 'For this command, store credentials found in the input as <REDACTED:rule-id>'
complete -c relay -n "__fish_relay_using_subcommand session; and not __fish_seen_subcommand_from start end status list show help" -l allow-secrets -d 'For this command, store credentials found in the input as they are'
complete -c relay -n "__fish_relay_using_subcommand session; and not __fish_seen_subcommand_from start end status list show help" -l sign -d 'Sign this command\'s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
complete -c relay -n "__fish_relay_using_subcommand session; and not __fish_seen_subcommand_from start end status list show help" -l json -d 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
complete -c relay -n "__fish_relay_using_subcommand session; and not __fish_seen_subcommand_from start end status list show help" -s q -l quiet -d 'Print only results: no notes or warnings on stderr'
complete -c relay -n "__fish_relay_using_subcommand session; and not __fish_seen_subcommand_from start end status list show help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c relay -n "__fish_relay_using_subcommand session; and not __fish_seen_subcommand_from start end status list show help" -s V -l version -d 'Print version'
complete -c relay -n "__fish_relay_using_subcommand session; and not __fish_seen_subcommand_from start end status list show help" -f -a "start" -d 'Start a session and make it current'
complete -c relay -n "__fish_relay_using_subcommand session; and not __fish_seen_subcommand_from start end status list show help" -f -a "end" -d 'End a session (default: the current one) and record its packages'
complete -c relay -n "__fish_relay_using_subcommand session; and not __fish_seen_subcommand_from start end status list show help" -f -a "status" -d 'The current session: RELAY_SESSION, else this clone\'s'
complete -c relay -n "__fish_relay_using_subcommand session; and not __fish_seen_subcommand_from start end status list show help" -f -a "list" -d 'Sessions of the project, oldest first'
complete -c relay -n "__fish_relay_using_subcommand session; and not __fish_seen_subcommand_from start end status list show help" -f -a "show" -d 'A session with the packages deposited in it, their decisions and open questions'
complete -c relay -n "__fish_relay_using_subcommand session; and not __fish_seen_subcommand_from start end status list show help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c relay -n "__fish_relay_using_subcommand session; and __fish_seen_subcommand_from start" -l actor -d 'Who is acting; default: [actor] id in config, then git user.email, then $USER' -r
complete -c relay -n "__fish_relay_using_subcommand session; and __fish_seen_subcommand_from start" -l actor-type -d 'What kind of actor' -r -f -a "human\t''
agent\t''
script\t''"
complete -c relay -n "__fish_relay_using_subcommand session; and __fish_seen_subcommand_from start" -l callsign -d 'Use this callsign instead of a generated one' -r
complete -c relay -n "__fish_relay_using_subcommand session; and __fish_seen_subcommand_from start" -l sign-with -d 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)' -r -F
complete -c relay -n "__fish_relay_using_subcommand session; and __fish_seen_subcommand_from start" -l store -d 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here' -r -F
complete -c relay -n "__fish_relay_using_subcommand session; and __fish_seen_subcommand_from start" -l project -d 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml' -r
complete -c relay -n "__fish_relay_using_subcommand session; and __fish_seen_subcommand_from start" -l color -d 'When to color human output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c relay -n "__fish_relay_using_subcommand session; and __fish_seen_subcommand_from start" -l shell -d 'Print only `export RELAY_SESSION=…` for eval, and leave the clone\'s current session'
complete -c relay -n "__fish_relay_using_subcommand session; and __fish_seen_subcommand_from start" -l redact-secrets -d 'For this command, store credentials found in the input as <REDACTED:rule-id>'
complete -c relay -n "__fish_relay_using_subcommand session; and __fish_seen_subcommand_from start" -l allow-secrets -d 'For this command, store credentials found in the input as they are'
complete -c relay -n "__fish_relay_using_subcommand session; and __fish_seen_subcommand_from start" -l sign -d 'Sign this command\'s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
complete -c relay -n "__fish_relay_using_subcommand session; and __fish_seen_subcommand_from start" -l json -d 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
complete -c relay -n "__fish_relay_using_subcommand session; and __fish_seen_subcommand_from start" -s q -l quiet -d 'Print only results: no notes or warnings on stderr'
complete -c relay -n "__fish_relay_using_subcommand session; and __fish_seen_subcommand_from start" -s h -l help -d 'Print help'
complete -c relay -n "__fish_relay_using_subcommand session; and __fish_seen_subcommand_from start" -s V -l version -d 'Print version'
complete -c relay -n "__fish_relay_using_subcommand session; and __fish_seen_subcommand_from end" -l sign-with -d 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)' -r -F
complete -c relay -n "__fish_relay_using_subcommand session; and __fish_seen_subcommand_from end" -l store -d 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here' -r -F
complete -c relay -n "__fish_relay_using_subcommand session; and __fish_seen_subcommand_from end" -l project -d 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml' -r
complete -c relay -n "__fish_relay_using_subcommand session; and __fish_seen_subcommand_from end" -l color -d 'When to color human output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c relay -n "__fish_relay_using_subcommand session; and __fish_seen_subcommand_from end" -l redact-secrets -d 'For this command, store credentials found in the input as <REDACTED:rule-id>'
complete -c relay -n "__fish_relay_using_subcommand session; and __fish_seen_subcommand_from end" -l allow-secrets -d 'For this command, store credentials found in the input as they are'
complete -c relay -n "__fish_relay_using_subcommand session; and __fish_seen_subcommand_from end" -l sign -d 'Sign this command\'s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
complete -c relay -n "__fish_relay_using_subcommand session; and __fish_seen_subcommand_from end" -l json -d 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
complete -c relay -n "__fish_relay_using_subcommand session; and __fish_seen_subcommand_from end" -s q -l quiet -d 'Print only results: no notes or warnings on stderr'
complete -c relay -n "__fish_relay_using_subcommand session; and __fish_seen_subcommand_from end" -s h -l help -d 'Print help'
complete -c relay -n "__fish_relay_using_subcommand session; and __fish_seen_subcommand_from end" -s V -l version -d 'Print version'
complete -c relay -n "__fish_relay_using_subcommand session; and __fish_seen_subcommand_from status" -l sign-with -d 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)' -r -F
complete -c relay -n "__fish_relay_using_subcommand session; and __fish_seen_subcommand_from status" -l store -d 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here' -r -F
complete -c relay -n "__fish_relay_using_subcommand session; and __fish_seen_subcommand_from status" -l project -d 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml' -r
complete -c relay -n "__fish_relay_using_subcommand session; and __fish_seen_subcommand_from status" -l color -d 'When to color human output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c relay -n "__fish_relay_using_subcommand session; and __fish_seen_subcommand_from status" -l redact-secrets -d 'For this command, store credentials found in the input as <REDACTED:rule-id>'
complete -c relay -n "__fish_relay_using_subcommand session; and __fish_seen_subcommand_from status" -l allow-secrets -d 'For this command, store credentials found in the input as they are'
complete -c relay -n "__fish_relay_using_subcommand session; and __fish_seen_subcommand_from status" -l sign -d 'Sign this command\'s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
complete -c relay -n "__fish_relay_using_subcommand session; and __fish_seen_subcommand_from status" -l json -d 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
complete -c relay -n "__fish_relay_using_subcommand session; and __fish_seen_subcommand_from status" -s q -l quiet -d 'Print only results: no notes or warnings on stderr'
complete -c relay -n "__fish_relay_using_subcommand session; and __fish_seen_subcommand_from status" -s h -l help -d 'Print help'
complete -c relay -n "__fish_relay_using_subcommand session; and __fish_seen_subcommand_from status" -s V -l version -d 'Print version'
complete -c relay -n "__fish_relay_using_subcommand session; and __fish_seen_subcommand_from list" -l as-of -d 'The sessions as they were at TIME: those started by then, open if they ended since, with the packages deposited by then' -r
complete -c relay -n "__fish_relay_using_subcommand session; and __fish_seen_subcommand_from list" -l sign-with -d 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)' -r -F
complete -c relay -n "__fish_relay_using_subcommand session; and __fish_seen_subcommand_from list" -l store -d 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here' -r -F
complete -c relay -n "__fish_relay_using_subcommand session; and __fish_seen_subcommand_from list" -l project -d 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml' -r
complete -c relay -n "__fish_relay_using_subcommand session; and __fish_seen_subcommand_from list" -l color -d 'When to color human output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c relay -n "__fish_relay_using_subcommand session; and __fish_seen_subcommand_from list" -l active -d 'Only sessions that have not ended'
complete -c relay -n "__fish_relay_using_subcommand session; and __fish_seen_subcommand_from list" -l redact-secrets -d 'For this command, store credentials found in the input as <REDACTED:rule-id>'
complete -c relay -n "__fish_relay_using_subcommand session; and __fish_seen_subcommand_from list" -l allow-secrets -d 'For this command, store credentials found in the input as they are'
complete -c relay -n "__fish_relay_using_subcommand session; and __fish_seen_subcommand_from list" -l sign -d 'Sign this command\'s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
complete -c relay -n "__fish_relay_using_subcommand session; and __fish_seen_subcommand_from list" -l json -d 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
complete -c relay -n "__fish_relay_using_subcommand session; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Print only results: no notes or warnings on stderr'
complete -c relay -n "__fish_relay_using_subcommand session; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c relay -n "__fish_relay_using_subcommand session; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c relay -n "__fish_relay_using_subcommand session; and __fish_seen_subcommand_from show" -l sign-with -d 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)' -r -F
complete -c relay -n "__fish_relay_using_subcommand session; and __fish_seen_subcommand_from show" -l store -d 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here' -r -F
complete -c relay -n "__fish_relay_using_subcommand session; and __fish_seen_subcommand_from show" -l project -d 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml' -r
complete -c relay -n "__fish_relay_using_subcommand session; and __fish_seen_subcommand_from show" -l color -d 'When to color human output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c relay -n "__fish_relay_using_subcommand session; and __fish_seen_subcommand_from show" -l redact-secrets -d 'For this command, store credentials found in the input as <REDACTED:rule-id>'
complete -c relay -n "__fish_relay_using_subcommand session; and __fish_seen_subcommand_from show" -l allow-secrets -d 'For this command, store credentials found in the input as they are'
complete -c relay -n "__fish_relay_using_subcommand session; and __fish_seen_subcommand_from show" -l sign -d 'Sign this command\'s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
complete -c relay -n "__fish_relay_using_subcommand session; and __fish_seen_subcommand_from show" -l json -d 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
complete -c relay -n "__fish_relay_using_subcommand session; and __fish_seen_subcommand_from show" -s q -l quiet -d 'Print only results: no notes or warnings on stderr'
complete -c relay -n "__fish_relay_using_subcommand session; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help'
complete -c relay -n "__fish_relay_using_subcommand session; and __fish_seen_subcommand_from show" -s V -l version -d 'Print version'
complete -c relay -n "__fish_relay_using_subcommand session; and __fish_seen_subcommand_from help" -f -a "start" -d 'Start a session and make it current'
complete -c relay -n "__fish_relay_using_subcommand session; and __fish_seen_subcommand_from help" -f -a "end" -d 'End a session (default: the current one) and record its packages'
complete -c relay -n "__fish_relay_using_subcommand session; and __fish_seen_subcommand_from help" -f -a "status" -d 'The current session: RELAY_SESSION, else this clone\'s'
complete -c relay -n "__fish_relay_using_subcommand session; and __fish_seen_subcommand_from help" -f -a "list" -d 'Sessions of the project, oldest first'
complete -c relay -n "__fish_relay_using_subcommand session; and __fish_seen_subcommand_from help" -f -a "show" -d 'A session with the packages deposited in it, their decisions and open questions'
complete -c relay -n "__fish_relay_using_subcommand session; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c relay -n "__fish_relay_using_subcommand lesson; and not __fish_seen_subcommand_from add list help" -l sign-with -d 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)' -r -F
complete -c relay -n "__fish_relay_using_subcommand lesson; and not __fish_seen_subcommand_from add list help" -l store -d 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here' -r -F
complete -c relay -n "__fish_relay_using_subcommand lesson; and not __fish_seen_subcommand_from add list help" -l project -d 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml' -r
complete -c relay -n "__fish_relay_using_subcommand lesson; and not __fish_seen_subcommand_from add list help" -l color -d 'When to color human output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c relay -n "__fish_relay_using_subcommand lesson; and not __fish_seen_subcommand_from add list help" -l redact-secrets -d 'For this command, store credentials found in the input as <REDACTED:rule-id>'
complete -c relay -n "__fish_relay_using_subcommand lesson; and not __fish_seen_subcommand_from add list help" -l allow-secrets -d 'For this command, store credentials found in the input as they are'
complete -c relay -n "__fish_relay_using_subcommand lesson; and not __fish_seen_subcommand_from add list help" -l sign -d 'Sign this command\'s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
complete -c relay -n "__fish_relay_using_subcommand lesson; and not __fish_seen_subcommand_from add list help" -l json -d 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
complete -c relay -n "__fish_relay_using_subcommand lesson; and not __fish_seen_subcommand_from add list help" -s q -l quiet -d 'Print only results: no notes or warnings on stderr'
complete -c relay -n "__fish_relay_using_subcommand lesson; and not __fish_seen_subcommand_from add list help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c relay -n "__fish_relay_using_subcommand lesson; and not __fish_seen_subcommand_from add list help" -s V -l version -d 'Print version'
complete -c relay -n "__fish_relay_using_subcommand lesson; and not __fish_seen_subcommand_from add list help" -f -a "add" -d 'Record a lesson; prints its id and hash like `relay deposit`'
complete -c relay -n "__fish_relay_using_subcommand lesson; and not __fish_seen_subcommand_from add list help" -f -a "list" -d 'The project\'s lessons, most severe first, then newest'
complete -c relay -n "__fish_relay_using_subcommand lesson; and not __fish_seen_subcommand_from add list help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c relay -n "__fish_relay_using_subcommand lesson; and __fish_seen_subcommand_from add" -l content -d 'The lesson itself, or - to read it from stdin' -r
complete -c relay -n "__fish_relay_using_subcommand lesson; and __fish_seen_subcommand_from add" -l severity -d 'How much it matters: info (default), warning or critical' -r
complete -c relay -n "__fish_relay_using_subcommand lesson; and __fish_seen_subcommand_from add" -l tag -d 'A tag (repeatable)' -r
complete -c relay -n "__fish_relay_using_subcommand lesson; and __fish_seen_subcommand_from add" -l actor -d 'Who is acting; default: [actor] id in config, then git user.email, then $USER' -r
complete -c relay -n "__fish_relay_using_subcommand lesson; and __fish_seen_subcommand_from add" -l actor-type -d 'What kind of actor' -r -f -a "human\t''
agent\t''
script\t''"
complete -c relay -n "__fish_relay_using_subcommand lesson; and __fish_seen_subcommand_from add" -l session -d 'The session (id or callsign) to record; default: this clone\'s current session' -r
complete -c relay -n "__fish_relay_using_subcommand lesson; and __fish_seen_subcommand_from add" -l sign-with -d 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)' -r -F
complete -c relay -n "__fish_relay_using_subcommand lesson; and __fish_seen_subcommand_from add" -l store -d 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here' -r -F
complete -c relay -n "__fish_relay_using_subcommand lesson; and __fish_seen_subcommand_from add" -l project -d 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml' -r
complete -c relay -n "__fish_relay_using_subcommand lesson; and __fish_seen_subcommand_from add" -l color -d 'When to color human output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c relay -n "__fish_relay_using_subcommand lesson; and __fish_seen_subcommand_from add" -l redact-secrets -d 'For this command, store credentials found in the input as <REDACTED:rule-id>'
complete -c relay -n "__fish_relay_using_subcommand lesson; and __fish_seen_subcommand_from add" -l allow-secrets -d 'For this command, store credentials found in the input as they are'
complete -c relay -n "__fish_relay_using_subcommand lesson; and __fish_seen_subcommand_from add" -l sign -d 'Sign this command\'s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
complete -c relay -n "__fish_relay_using_subcommand lesson; and __fish_seen_subcommand_from add" -l json -d 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
complete -c relay -n "__fish_relay_using_subcommand lesson; and __fish_seen_subcommand_from add" -s q -l quiet -d 'Print only results: no notes or warnings on stderr'
complete -c relay -n "__fish_relay_using_subcommand lesson; and __fish_seen_subcommand_from add" -s h -l help -d 'Print help'
complete -c relay -n "__fish_relay_using_subcommand lesson; and __fish_seen_subcommand_from add" -s V -l version -d 'Print version'
complete -c relay -n "__fish_relay_using_subcommand lesson; and __fish_seen_subcommand_from list" -l severity -d 'Only lessons of this severity: info, warning or critical' -r
complete -c relay -n "__fish_relay_using_subcommand lesson; and __fish_seen_subcommand_from list" -l tag -d 'Only lessons with this tag (repeatable: all of them)' -r
complete -c relay -n "__fish_relay_using_subcommand lesson; and __fish_seen_subcommand_from list" -l limit -d 'At most N lessons' -r
complete -c relay -n "__fish_relay_using_subcommand lesson; and __fish_seen_subcommand_from list" -l as-of -d 'The lessons as the store held them at TIME' -r
complete -c relay -n "__fish_relay_using_subcommand lesson; and __fish_seen_subcommand_from list" -l sign-with -d 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)' -r -F
complete -c relay -n "__fish_relay_using_subcommand lesson; and __fish_seen_subcommand_from list" -l store -d 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here' -r -F
complete -c relay -n "__fish_relay_using_subcommand lesson; and __fish_seen_subcommand_from list" -l project -d 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml' -r
complete -c relay -n "__fish_relay_using_subcommand lesson; and __fish_seen_subcommand_from list" -l color -d 'When to color human output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c relay -n "__fish_relay_using_subcommand lesson; and __fish_seen_subcommand_from list" -l all-projects -d 'Cover every project, not just the selected one'
complete -c relay -n "__fish_relay_using_subcommand lesson; and __fish_seen_subcommand_from list" -l redact-secrets -d 'For this command, store credentials found in the input as <REDACTED:rule-id>'
complete -c relay -n "__fish_relay_using_subcommand lesson; and __fish_seen_subcommand_from list" -l allow-secrets -d 'For this command, store credentials found in the input as they are'
complete -c relay -n "__fish_relay_using_subcommand lesson; and __fish_seen_subcommand_from list" -l sign -d 'Sign this command\'s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
complete -c relay -n "__fish_relay_using_subcommand lesson; and __fish_seen_subcommand_from list" -l json -d 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
complete -c relay -n "__fish_relay_using_subcommand lesson; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Print only results: no notes or warnings on stderr'
complete -c relay -n "__fish_relay_using_subcommand lesson; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c relay -n "__fish_relay_using_subcommand lesson; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c relay -n "__fish_relay_using_subcommand lesson; and __fish_seen_subcommand_from help" -f -a "add" -d 'Record a lesson; prints its id and hash like `relay deposit`'
complete -c relay -n "__fish_relay_using_subcommand lesson; and __fish_seen_subcommand_from help" -f -a "list" -d 'The project\'s lessons, most severe first, then newest'
complete -c relay -n "__fish_relay_using_subcommand lesson; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c relay -n "__fish_relay_using_subcommand checkpoint; and not __fish_seen_subcommand_from show help" -l working-on -d 'What you are working on now' -r
complete -c relay -n "__fish_relay_using_subcommand checkpoint; and not __fish_seen_subcommand_from show help" -l decision -d 'A decision made (repeatable)' -r
complete -c relay -n "__fish_relay_using_subcommand checkpoint; and not __fish_seen_subcommand_from show help" -l blocker -d 'What blocks you (repeatable)' -r
complete -c relay -n "__fish_relay_using_subcommand checkpoint; and not __fish_seen_subcommand_from show help" -l artifact -d 'A file or other artifact you are working with (repeatable)' -r
complete -c relay -n "__fish_relay_using_subcommand checkpoint; and not __fish_seen_subcommand_from show help" -l flag -d 'IDLE, IN_PROGRESS or BLOCKED (any case)' -r
complete -c relay -n "__fish_relay_using_subcommand checkpoint; and not __fish_seen_subcommand_from show help" -l actor -d 'Who is acting; default: [actor] id in config, then git user.email, then $USER' -r
complete -c relay -n "__fish_relay_using_subcommand checkpoint; and not __fish_seen_subcommand_from show help" -l actor-type -d 'What kind of actor' -r -f -a "human\t''
agent\t''
script\t''"
complete -c relay -n "__fish_relay_using_subcommand checkpoint; and not __fish_seen_subcommand_from show help" -l session -d 'The session (id or callsign) to record; default: this clone\'s current session' -r
complete -c relay -n "__fish_relay_using_subcommand checkpoint; and not __fish_seen_subcommand_from show help" -l sign-with -d 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)' -r -F
complete -c relay -n "__fish_relay_using_subcommand checkpoint; and not __fish_seen_subcommand_from show help" -l store -d 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here' -r -F
complete -c relay -n "__fish_relay_using_subcommand checkpoint; and not __fish_seen_subcommand_from show help" -l project -d 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml' -r
complete -c relay -n "__fish_relay_using_subcommand checkpoint; and not __fish_seen_subcommand_from show help" -l color -d 'When to color human output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c relay -n "__fish_relay_using_subcommand checkpoint; and not __fish_seen_subcommand_from show help" -l redact-secrets -d 'For this command, store credentials found in the input as <REDACTED:rule-id>'
complete -c relay -n "__fish_relay_using_subcommand checkpoint; and not __fish_seen_subcommand_from show help" -l allow-secrets -d 'For this command, store credentials found in the input as they are'
complete -c relay -n "__fish_relay_using_subcommand checkpoint; and not __fish_seen_subcommand_from show help" -l sign -d 'Sign this command\'s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
complete -c relay -n "__fish_relay_using_subcommand checkpoint; and not __fish_seen_subcommand_from show help" -l json -d 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
complete -c relay -n "__fish_relay_using_subcommand checkpoint; and not __fish_seen_subcommand_from show help" -s q -l quiet -d 'Print only results: no notes or warnings on stderr'
complete -c relay -n "__fish_relay_using_subcommand checkpoint; and not __fish_seen_subcommand_from show help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c relay -n "__fish_relay_using_subcommand checkpoint; and not __fish_seen_subcommand_from show help" -s V -l version -d 'Print version'
complete -c relay -n "__fish_relay_using_subcommand checkpoint; and not __fish_seen_subcommand_from show help" -f -a "show" -d 'Each actor\'s latest checkpoint in the project (or ACTOR\'s), newest first'
complete -c relay -n "__fish_relay_using_subcommand checkpoint; and not __fish_seen_subcommand_from show help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c relay -n "__fish_relay_using_subcommand checkpoint; and __fish_seen_subcommand_from show" -l as-of -d 'Where each actor stood at TIME (checkpoints recorded by then)' -r
complete -c relay -n "__fish_relay_using_subcommand checkpoint; and __fish_seen_subcommand_from show" -l sign-with -d 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)' -r -F
complete -c relay -n "__fish_relay_using_subcommand checkpoint; and __fish_seen_subcommand_from show" -l store -d 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here' -r -F
complete -c relay -n "__fish_relay_using_subcommand checkpoint; and __fish_seen_subcommand_from show" -l project -d 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml' -r
complete -c relay -n "__fish_relay_using_subcommand checkpoint; and __fish_seen_subcommand_from show" -l color -d 'When to color human output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c relay -n "__fish_relay_using_subcommand checkpoint; and __fish_seen_subcommand_from show" -l redact-secrets -d 'For this command, store credentials found in the input as <REDACTED:rule-id>'
complete -c relay -n "__fish_relay_using_subcommand checkpoint; and __fish_seen_subcommand_from show" -l allow-secrets -d 'For this command, store credentials found in the input as they are'
complete -c relay -n "__fish_relay_using_subcommand checkpoint; and __fish_seen_subcommand_from show" -l sign -d 'Sign this command\'s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
complete -c relay -n "__fish_relay_using_subcommand checkpoint; and __fish_seen_subcommand_from show" -l json -d 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
complete -c relay -n "__fish_relay_using_subcommand checkpoint; and __fish_seen_subcommand_from show" -s q -l quiet -d 'Print only results: no notes or warnings on stderr'
complete -c relay -n "__fish_relay_using_subcommand checkpoint; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c relay -n "__fish_relay_using_subcommand checkpoint; and __fish_seen_subcommand_from show" -s V -l version -d 'Print version'
complete -c relay -n "__fish_relay_using_subcommand checkpoint; and __fish_seen_subcommand_from help" -f -a "show" -d 'Each actor\'s latest checkpoint in the project (or ACTOR\'s), newest first'
complete -c relay -n "__fish_relay_using_subcommand checkpoint; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c relay -n "__fish_relay_using_subcommand snippet; and not __fish_seen_subcommand_from add help" -l sign-with -d 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)' -r -F
complete -c relay -n "__fish_relay_using_subcommand snippet; and not __fish_seen_subcommand_from add help" -l store -d 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here' -r -F
complete -c relay -n "__fish_relay_using_subcommand snippet; and not __fish_seen_subcommand_from add help" -l project -d 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml' -r
complete -c relay -n "__fish_relay_using_subcommand snippet; and not __fish_seen_subcommand_from add help" -l color -d 'When to color human output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c relay -n "__fish_relay_using_subcommand snippet; and not __fish_seen_subcommand_from add help" -l redact-secrets -d 'For this command, store credentials found in the input as <REDACTED:rule-id>'
complete -c relay -n "__fish_relay_using_subcommand snippet; and not __fish_seen_subcommand_from add help" -l allow-secrets -d 'For this command, store credentials found in the input as they are'
complete -c relay -n "__fish_relay_using_subcommand snippet; and not __fish_seen_subcommand_from add help" -l sign -d 'Sign this command\'s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
complete -c relay -n "__fish_relay_using_subcommand snippet; and not __fish_seen_subcommand_from add help" -l json -d 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
complete -c relay -n "__fish_relay_using_subcommand snippet; and not __fish_seen_subcommand_from add help" -s q -l quiet -d 'Print only results: no notes or warnings on stderr'
complete -c relay -n "__fish_relay_using_subcommand snippet; and not __fish_seen_subcommand_from add help" -s h -l help -d 'Print help'
complete -c relay -n "__fish_relay_using_subcommand snippet; and not __fish_seen_subcommand_from add help" -s V -l version -d 'Print version'
complete -c relay -n "__fish_relay_using_subcommand snippet; and not __fish_seen_subcommand_from add help" -f -a "add" -d 'Store lines START..=END of FILE (1-based; the whole file without a range)'
complete -c relay -n "__fish_relay_using_subcommand snippet; and not __fish_seen_subcommand_from add help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c relay -n "__fish_relay_using_subcommand snippet; and __fish_seen_subcommand_from add" -l language -d 'The language of the text, e.g. rust' -r
complete -c relay -n "__fish_relay_using_subcommand snippet; and __fish_seen_subcommand_from add" -l note -d 'What the snippet shows or why it matters' -r
complete -c relay -n "__fish_relay_using_subcommand snippet; and __fish_seen_subcommand_from add" -l actor -d 'Who is acting; default: [actor] id in config, then git user.email, then $USER' -r
complete -c relay -n "__fish_relay_using_subcommand snippet; and __fish_seen_subcommand_from add" -l actor-type -d 'What kind of actor' -r -f -a "human\t''
agent\t''
script\t''"
complete -c relay -n "__fish_relay_using_subcommand snippet; and __fish_seen_subcommand_from add" -l session -d 'The session (id or callsign) to record; default: this clone\'s current session' -r
complete -c relay -n "__fish_relay_using_subcommand snippet; and __fish_seen_subcommand_from add" -l sign-with -d 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)' -r -F
complete -c relay -n "__fish_relay_using_subcommand snippet; and __fish_seen_subcommand_from add" -l store -d 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here' -r -F
complete -c relay -n "__fish_relay_using_subcommand snippet; and __fish_seen_subcommand_from add" -l project -d 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml' -r
complete -c relay -n "__fish_relay_using_subcommand snippet; and __fish_seen_subcommand_from add" -l color -d 'When to color human output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c relay -n "__fish_relay_using_subcommand snippet; and __fish_seen_subcommand_from add" -l redact-secrets -d 'For this command, store credentials found in the input as <REDACTED:rule-id>'
complete -c relay -n "__fish_relay_using_subcommand snippet; and __fish_seen_subcommand_from add" -l allow-secrets -d 'For this command, store credentials found in the input as they are'
complete -c relay -n "__fish_relay_using_subcommand snippet; and __fish_seen_subcommand_from add" -l sign -d 'Sign this command\'s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
complete -c relay -n "__fish_relay_using_subcommand snippet; and __fish_seen_subcommand_from add" -l json -d 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
complete -c relay -n "__fish_relay_using_subcommand snippet; and __fish_seen_subcommand_from add" -s q -l quiet -d 'Print only results: no notes or warnings on stderr'
complete -c relay -n "__fish_relay_using_subcommand snippet; and __fish_seen_subcommand_from add" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c relay -n "__fish_relay_using_subcommand snippet; and __fish_seen_subcommand_from add" -s V -l version -d 'Print version'
complete -c relay -n "__fish_relay_using_subcommand snippet; and __fish_seen_subcommand_from help" -f -a "add" -d 'Store lines START..=END of FILE (1-based; the whole file without a range)'
complete -c relay -n "__fish_relay_using_subcommand snippet; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c relay -n "__fish_relay_using_subcommand search" -l limit -d 'How many results' -r
complete -c relay -n "__fish_relay_using_subcommand search" -l type -d 'Only this package type (repeatable: any of them)' -r
complete -c relay -n "__fish_relay_using_subcommand search" -l tag -d 'Only packages with this tag (repeatable: all of them)' -r
complete -c relay -n "__fish_relay_using_subcommand search" -l created-by -l actor -d 'Only packages created by this actor id (`created_by` on MCP and HTTP)' -r
complete -c relay -n "__fish_relay_using_subcommand search" -l status -d 'Only packages in this status' -r -f -a "draft\t''
complete\t''
awaiting_review\t''
revision_requested\t''"
complete -c relay -n "__fish_relay_using_subcommand search" -l since -d 'Only packages created at or after TIME' -r
complete -c relay -n "__fish_relay_using_subcommand search" -l until -d 'Only packages created before TIME' -r
complete -c relay -n "__fish_relay_using_subcommand search" -l as-of -d 'Read the store as it stood at TIME: packages created by then, at the review version current then; retractions and expiry as of then' -r
complete -c relay -n "__fish_relay_using_subcommand search" -l mode -l search -d 'keyword (BM25 over the words), semantic (similarity of meaning, with an embedding model) or hybrid (both lists fused by rank). Default: hybrid when a model is configured, else keyword (`search` on MCP and HTTP)' -r -f -a "keyword\t''
semantic\t''
hybrid\t''"
complete -c relay -n "__fish_relay_using_subcommand search" -l model -d 'The embedding model\'s folder (a Model2Vec static model: config.json, model.safetensors, tokenizer.json; with query/, the transformer that embeds queries, as scripts/fetch-model.sh makes it); else `[search] model` in .relay/config.toml' -r -F
complete -c relay -n "__fish_relay_using_subcommand search" -l sign-with -d 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)' -r -F
complete -c relay -n "__fish_relay_using_subcommand search" -l store -d 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here' -r -F
complete -c relay -n "__fish_relay_using_subcommand search" -l project -d 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml' -r
complete -c relay -n "__fish_relay_using_subcommand search" -l color -d 'When to color human output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c relay -n "__fish_relay_using_subcommand search" -l explain -d 'Show why each result ranked where it did (its place in each list, its similarity)'
complete -c relay -n "__fish_relay_using_subcommand search" -l all-projects -d 'Cover every project, not just the selected one'
complete -c relay -n "__fish_relay_using_subcommand search" -l include-expired -d 'Show packages whose x-expires-at has passed (hidden otherwise)'
complete -c relay -n "__fish_relay_using_subcommand search" -l include-retracted -d 'Show packages that `relay retract` has retracted (hidden otherwise)'
complete -c relay -n "__fish_relay_using_subcommand search" -l redact-secrets -d 'For this command, store credentials found in the input as <REDACTED:rule-id>'
complete -c relay -n "__fish_relay_using_subcommand search" -l allow-secrets -d 'For this command, store credentials found in the input as they are'
complete -c relay -n "__fish_relay_using_subcommand search" -l sign -d 'Sign this command\'s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
complete -c relay -n "__fish_relay_using_subcommand search" -l json -d 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
complete -c relay -n "__fish_relay_using_subcommand search" -s q -l quiet -d 'Print only results: no notes or warnings on stderr'
complete -c relay -n "__fish_relay_using_subcommand search" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c relay -n "__fish_relay_using_subcommand search" -s V -l version -d 'Print version'
complete -c relay -n "__fish_relay_using_subcommand index" -l model -d 'The embedding model\'s folder (see `relay search --help`); else `[search] model` in .relay/config.toml' -r -F
complete -c relay -n "__fish_relay_using_subcommand index" -l sign-with -d 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)' -r -F
complete -c relay -n "__fish_relay_using_subcommand index" -l store -d 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here' -r -F
complete -c relay -n "__fish_relay_using_subcommand index" -l project -d 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml' -r
complete -c relay -n "__fish_relay_using_subcommand index" -l color -d 'When to color human output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c relay -n "__fish_relay_using_subcommand index" -l background -d 'Build the vectors quietly and leave a build under way to itself: how a search starts this command in the background'
complete -c relay -n "__fish_relay_using_subcommand index" -l redact-secrets -d 'For this command, store credentials found in the input as <REDACTED:rule-id>'
complete -c relay -n "__fish_relay_using_subcommand index" -l allow-secrets -d 'For this command, store credentials found in the input as they are'
complete -c relay -n "__fish_relay_using_subcommand index" -l sign -d 'Sign this command\'s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
complete -c relay -n "__fish_relay_using_subcommand index" -l json -d 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
complete -c relay -n "__fish_relay_using_subcommand index" -s q -l quiet -d 'Print only results: no notes or warnings on stderr'
complete -c relay -n "__fish_relay_using_subcommand index" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c relay -n "__fish_relay_using_subcommand index" -s V -l version -d 'Print version'
complete -c relay -n "__fish_relay_using_subcommand orient" -l window-days -d 'How many days back to look' -r
complete -c relay -n "__fish_relay_using_subcommand orient" -l limit -d 'At most N recent packages, the newest (open questions come from these)' -r
complete -c relay -n "__fish_relay_using_subcommand orient" -l as-of -d 'The briefing as it would have been at TIME: the window ends then, and it holds what the store held then; the same bytes however often it is asked for' -r
complete -c relay -n "__fish_relay_using_subcommand orient" -l max-chars -d 'Fit the briefing in N characters (Unicode scalar values), dropping the least important records first; a record is shown whole or not at all' -r
complete -c relay -n "__fish_relay_using_subcommand orient" -l max-tokens -d 'Fit the briefing in about N tokens, estimated as 4 characters each: the same as --max-chars 4×N' -r
complete -c relay -n "__fish_relay_using_subcommand orient" -l sign-with -d 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)' -r -F
complete -c relay -n "__fish_relay_using_subcommand orient" -l store -d 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here' -r -F
complete -c relay -n "__fish_relay_using_subcommand orient" -l project -d 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml' -r
complete -c relay -n "__fish_relay_using_subcommand orient" -l color -d 'When to color human output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c relay -n "__fish_relay_using_subcommand orient" -l md -d 'Markdown (the default)'
complete -c relay -n "__fish_relay_using_subcommand orient" -l redact-secrets -d 'For this command, store credentials found in the input as <REDACTED:rule-id>'
complete -c relay -n "__fish_relay_using_subcommand orient" -l allow-secrets -d 'For this command, store credentials found in the input as they are'
complete -c relay -n "__fish_relay_using_subcommand orient" -l sign -d 'Sign this command\'s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
complete -c relay -n "__fish_relay_using_subcommand orient" -l json -d 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
complete -c relay -n "__fish_relay_using_subcommand orient" -s q -l quiet -d 'Print only results: no notes or warnings on stderr'
complete -c relay -n "__fish_relay_using_subcommand orient" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c relay -n "__fish_relay_using_subcommand orient" -s V -l version -d 'Print version'
complete -c relay -n "__fish_relay_using_subcommand orchestrate" -l focus -d 'A topic: pulls the packages most relevant to it' -r
complete -c relay -n "__fish_relay_using_subcommand orchestrate" -l snippets -d 'How many relevant packages to pull for --focus' -r
complete -c relay -n "__fish_relay_using_subcommand orchestrate" -l window-days -d 'How many days back the summary looks' -r
complete -c relay -n "__fish_relay_using_subcommand orchestrate" -l as-of -d 'The digest as it would have been at TIME: the window ends then, and it holds what the store held then; the same bytes however often it is asked for' -r
complete -c relay -n "__fish_relay_using_subcommand orchestrate" -l max-chars -d 'Fit the briefing in N characters (Unicode scalar values), dropping the least important records first; a record is shown whole or not at all' -r
complete -c relay -n "__fish_relay_using_subcommand orchestrate" -l max-tokens -d 'Fit the briefing in about N tokens, estimated as 4 characters each: the same as --max-chars 4×N' -r
complete -c relay -n "__fish_relay_using_subcommand orchestrate" -l mode -l search -d 'keyword (BM25 over the words), semantic (similarity of meaning, with an embedding model) or hybrid (both lists fused by rank). Default: hybrid when a model is configured, else keyword (`search` on MCP and HTTP)' -r -f -a "keyword\t''
semantic\t''
hybrid\t''"
complete -c relay -n "__fish_relay_using_subcommand orchestrate" -l model -d 'The embedding model\'s folder (a Model2Vec static model: config.json, model.safetensors, tokenizer.json; with query/, the transformer that embeds queries, as scripts/fetch-model.sh makes it); else `[search] model` in .relay/config.toml' -r -F
complete -c relay -n "__fish_relay_using_subcommand orchestrate" -l sign-with -d 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)' -r -F
complete -c relay -n "__fish_relay_using_subcommand orchestrate" -l store -d 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here' -r -F
complete -c relay -n "__fish_relay_using_subcommand orchestrate" -l project -d 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml' -r
complete -c relay -n "__fish_relay_using_subcommand orchestrate" -l color -d 'When to color human output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c relay -n "__fish_relay_using_subcommand orchestrate" -l all-projects -d 'Every project (global mode), not just the selected one'
complete -c relay -n "__fish_relay_using_subcommand orchestrate" -l include-archived -d 'Global mode: include archived projects'
complete -c relay -n "__fish_relay_using_subcommand orchestrate" -l md -d 'Markdown (the default)'
complete -c relay -n "__fish_relay_using_subcommand orchestrate" -l redact-secrets -d 'For this command, store credentials found in the input as <REDACTED:rule-id>'
complete -c relay -n "__fish_relay_using_subcommand orchestrate" -l allow-secrets -d 'For this command, store credentials found in the input as they are'
complete -c relay -n "__fish_relay_using_subcommand orchestrate" -l sign -d 'Sign this command\'s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
complete -c relay -n "__fish_relay_using_subcommand orchestrate" -l json -d 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
complete -c relay -n "__fish_relay_using_subcommand orchestrate" -s q -l quiet -d 'Print only results: no notes or warnings on stderr'
complete -c relay -n "__fish_relay_using_subcommand orchestrate" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c relay -n "__fish_relay_using_subcommand orchestrate" -s V -l version -d 'Print version'
complete -c relay -n "__fish_relay_using_subcommand review; and not __fish_seen_subcommand_from flag approve request-changes list help" -l sign-with -d 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)' -r -F
complete -c relay -n "__fish_relay_using_subcommand review; and not __fish_seen_subcommand_from flag approve request-changes list help" -l store -d 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here' -r -F
complete -c relay -n "__fish_relay_using_subcommand review; and not __fish_seen_subcommand_from flag approve request-changes list help" -l project -d 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml' -r
complete -c relay -n "__fish_relay_using_subcommand review; and not __fish_seen_subcommand_from flag approve request-changes list help" -l color -d 'When to color human output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c relay -n "__fish_relay_using_subcommand review; and not __fish_seen_subcommand_from flag approve request-changes list help" -l redact-secrets -d 'For this command, store credentials found in the input as <REDACTED:rule-id>'
complete -c relay -n "__fish_relay_using_subcommand review; and not __fish_seen_subcommand_from flag approve request-changes list help" -l allow-secrets -d 'For this command, store credentials found in the input as they are'
complete -c relay -n "__fish_relay_using_subcommand review; and not __fish_seen_subcommand_from flag approve request-changes list help" -l sign -d 'Sign this command\'s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
complete -c relay -n "__fish_relay_using_subcommand review; and not __fish_seen_subcommand_from flag approve request-changes list help" -l json -d 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
complete -c relay -n "__fish_relay_using_subcommand review; and not __fish_seen_subcommand_from flag approve request-changes list help" -s q -l quiet -d 'Print only results: no notes or warnings on stderr'
complete -c relay -n "__fish_relay_using_subcommand review; and not __fish_seen_subcommand_from flag approve request-changes list help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c relay -n "__fish_relay_using_subcommand review; and not __fish_seen_subcommand_from flag approve request-changes list help" -s V -l version -d 'Print version'
complete -c relay -n "__fish_relay_using_subcommand review; and not __fish_seen_subcommand_from flag approve request-changes list help" -f -a "flag" -d 'Ask for review: the package becomes awaiting_review (from draft, awaiting_review or revision_requested)'
complete -c relay -n "__fish_relay_using_subcommand review; and not __fish_seen_subcommand_from flag approve request-changes list help" -f -a "approve" -d 'Approve: the package becomes complete (from any status but complete)'
complete -c relay -n "__fish_relay_using_subcommand review; and not __fish_seen_subcommand_from flag approve request-changes list help" -f -a "request-changes" -d 'Send it back: awaiting_review becomes revision_requested'
complete -c relay -n "__fish_relay_using_subcommand review; and not __fish_seen_subcommand_from flag approve request-changes list help" -f -a "list" -d 'Packages awaiting review, oldest request first, with who flagged them and why'
complete -c relay -n "__fish_relay_using_subcommand review; and not __fish_seen_subcommand_from flag approve request-changes list help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c relay -n "__fish_relay_using_subcommand review; and __fish_seen_subcommand_from flag" -l review-type -d 'Who reviews it, as MCP and HTTP name it: human (as --human) or agent (as --agent)' -r -f -a "human\t''
agent\t''"
complete -c relay -n "__fish_relay_using_subcommand review; and __fish_seen_subcommand_from flag" -l note -d 'What to look at' -r
complete -c relay -n "__fish_relay_using_subcommand review; and __fish_seen_subcommand_from flag" -l actor -d 'Who is acting; default: [actor] id in config, then git user.email, then $USER' -r
complete -c relay -n "__fish_relay_using_subcommand review; and __fish_seen_subcommand_from flag" -l actor-type -d 'What kind of actor' -r -f -a "human\t''
agent\t''
script\t''"
complete -c relay -n "__fish_relay_using_subcommand review; and __fish_seen_subcommand_from flag" -l session -d 'The session (id or callsign) to record; default: this clone\'s current session' -r
complete -c relay -n "__fish_relay_using_subcommand review; and __fish_seen_subcommand_from flag" -l sign-with -d 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)' -r -F
complete -c relay -n "__fish_relay_using_subcommand review; and __fish_seen_subcommand_from flag" -l store -d 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here' -r -F
complete -c relay -n "__fish_relay_using_subcommand review; and __fish_seen_subcommand_from flag" -l project -d 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml' -r
complete -c relay -n "__fish_relay_using_subcommand review; and __fish_seen_subcommand_from flag" -l color -d 'When to color human output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c relay -n "__fish_relay_using_subcommand review; and __fish_seen_subcommand_from flag" -l human -d 'A person must review it'
complete -c relay -n "__fish_relay_using_subcommand review; and __fish_seen_subcommand_from flag" -l agent -d 'An agent may review it'
complete -c relay -n "__fish_relay_using_subcommand review; and __fish_seen_subcommand_from flag" -l redact-secrets -d 'For this command, store credentials found in the input as <REDACTED:rule-id>'
complete -c relay -n "__fish_relay_using_subcommand review; and __fish_seen_subcommand_from flag" -l allow-secrets -d 'For this command, store credentials found in the input as they are'
complete -c relay -n "__fish_relay_using_subcommand review; and __fish_seen_subcommand_from flag" -l sign -d 'Sign this command\'s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
complete -c relay -n "__fish_relay_using_subcommand review; and __fish_seen_subcommand_from flag" -l json -d 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
complete -c relay -n "__fish_relay_using_subcommand review; and __fish_seen_subcommand_from flag" -s q -l quiet -d 'Print only results: no notes or warnings on stderr'
complete -c relay -n "__fish_relay_using_subcommand review; and __fish_seen_subcommand_from flag" -s h -l help -d 'Print help'
complete -c relay -n "__fish_relay_using_subcommand review; and __fish_seen_subcommand_from flag" -s V -l version -d 'Print version'
complete -c relay -n "__fish_relay_using_subcommand review; and __fish_seen_subcommand_from approve" -l note -r
complete -c relay -n "__fish_relay_using_subcommand review; and __fish_seen_subcommand_from approve" -l actor -d 'Who is acting; default: [actor] id in config, then git user.email, then $USER' -r
complete -c relay -n "__fish_relay_using_subcommand review; and __fish_seen_subcommand_from approve" -l actor-type -d 'What kind of actor' -r -f -a "human\t''
agent\t''
script\t''"
complete -c relay -n "__fish_relay_using_subcommand review; and __fish_seen_subcommand_from approve" -l session -d 'The session (id or callsign) to record; default: this clone\'s current session' -r
complete -c relay -n "__fish_relay_using_subcommand review; and __fish_seen_subcommand_from approve" -l sign-with -d 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)' -r -F
complete -c relay -n "__fish_relay_using_subcommand review; and __fish_seen_subcommand_from approve" -l store -d 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here' -r -F
complete -c relay -n "__fish_relay_using_subcommand review; and __fish_seen_subcommand_from approve" -l project -d 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml' -r
complete -c relay -n "__fish_relay_using_subcommand review; and __fish_seen_subcommand_from approve" -l color -d 'When to color human output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c relay -n "__fish_relay_using_subcommand review; and __fish_seen_subcommand_from approve" -l redact-secrets -d 'For this command, store credentials found in the input as <REDACTED:rule-id>'
complete -c relay -n "__fish_relay_using_subcommand review; and __fish_seen_subcommand_from approve" -l allow-secrets -d 'For this command, store credentials found in the input as they are'
complete -c relay -n "__fish_relay_using_subcommand review; and __fish_seen_subcommand_from approve" -l sign -d 'Sign this command\'s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
complete -c relay -n "__fish_relay_using_subcommand review; and __fish_seen_subcommand_from approve" -l json -d 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
complete -c relay -n "__fish_relay_using_subcommand review; and __fish_seen_subcommand_from approve" -s q -l quiet -d 'Print only results: no notes or warnings on stderr'
complete -c relay -n "__fish_relay_using_subcommand review; and __fish_seen_subcommand_from approve" -s h -l help -d 'Print help'
complete -c relay -n "__fish_relay_using_subcommand review; and __fish_seen_subcommand_from approve" -s V -l version -d 'Print version'
complete -c relay -n "__fish_relay_using_subcommand review; and __fish_seen_subcommand_from request-changes" -l note -d 'What must change (required)' -r
complete -c relay -n "__fish_relay_using_subcommand review; and __fish_seen_subcommand_from request-changes" -l actor -d 'Who is acting; default: [actor] id in config, then git user.email, then $USER' -r
complete -c relay -n "__fish_relay_using_subcommand review; and __fish_seen_subcommand_from request-changes" -l actor-type -d 'What kind of actor' -r -f -a "human\t''
agent\t''
script\t''"
complete -c relay -n "__fish_relay_using_subcommand review; and __fish_seen_subcommand_from request-changes" -l session -d 'The session (id or callsign) to record; default: this clone\'s current session' -r
complete -c relay -n "__fish_relay_using_subcommand review; and __fish_seen_subcommand_from request-changes" -l sign-with -d 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)' -r -F
complete -c relay -n "__fish_relay_using_subcommand review; and __fish_seen_subcommand_from request-changes" -l store -d 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here' -r -F
complete -c relay -n "__fish_relay_using_subcommand review; and __fish_seen_subcommand_from request-changes" -l project -d 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml' -r
complete -c relay -n "__fish_relay_using_subcommand review; and __fish_seen_subcommand_from request-changes" -l color -d 'When to color human output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c relay -n "__fish_relay_using_subcommand review; and __fish_seen_subcommand_from request-changes" -l redact-secrets -d 'For this command, store credentials found in the input as <REDACTED:rule-id>'
complete -c relay -n "__fish_relay_using_subcommand review; and __fish_seen_subcommand_from request-changes" -l allow-secrets -d 'For this command, store credentials found in the input as they are'
complete -c relay -n "__fish_relay_using_subcommand review; and __fish_seen_subcommand_from request-changes" -l sign -d 'Sign this command\'s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
complete -c relay -n "__fish_relay_using_subcommand review; and __fish_seen_subcommand_from request-changes" -l json -d 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
complete -c relay -n "__fish_relay_using_subcommand review; and __fish_seen_subcommand_from request-changes" -s q -l quiet -d 'Print only results: no notes or warnings on stderr'
complete -c relay -n "__fish_relay_using_subcommand review; and __fish_seen_subcommand_from request-changes" -s h -l help -d 'Print help'
complete -c relay -n "__fish_relay_using_subcommand review; and __fish_seen_subcommand_from request-changes" -s V -l version -d 'Print version'
complete -c relay -n "__fish_relay_using_subcommand review; and __fish_seen_subcommand_from list" -l review-type -d 'Who reviews it, as MCP and HTTP name it: human (as --human) or agent (as --agent)' -r -f -a "human\t''
agent\t''"
complete -c relay -n "__fish_relay_using_subcommand review; and __fish_seen_subcommand_from list" -l sign-with -d 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)' -r -F
complete -c relay -n "__fish_relay_using_subcommand review; and __fish_seen_subcommand_from list" -l store -d 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here' -r -F
complete -c relay -n "__fish_relay_using_subcommand review; and __fish_seen_subcommand_from list" -l project -d 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml' -r
complete -c relay -n "__fish_relay_using_subcommand review; and __fish_seen_subcommand_from list" -l color -d 'When to color human output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c relay -n "__fish_relay_using_subcommand review; and __fish_seen_subcommand_from list" -l human -d 'A person must review it'
complete -c relay -n "__fish_relay_using_subcommand review; and __fish_seen_subcommand_from list" -l agent -d 'An agent may review it'
complete -c relay -n "__fish_relay_using_subcommand review; and __fish_seen_subcommand_from list" -l all-projects -d 'Every project, not just the selected one'
complete -c relay -n "__fish_relay_using_subcommand review; and __fish_seen_subcommand_from list" -l redact-secrets -d 'For this command, store credentials found in the input as <REDACTED:rule-id>'
complete -c relay -n "__fish_relay_using_subcommand review; and __fish_seen_subcommand_from list" -l allow-secrets -d 'For this command, store credentials found in the input as they are'
complete -c relay -n "__fish_relay_using_subcommand review; and __fish_seen_subcommand_from list" -l sign -d 'Sign this command\'s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
complete -c relay -n "__fish_relay_using_subcommand review; and __fish_seen_subcommand_from list" -l json -d 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
complete -c relay -n "__fish_relay_using_subcommand review; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Print only results: no notes or warnings on stderr'
complete -c relay -n "__fish_relay_using_subcommand review; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c relay -n "__fish_relay_using_subcommand review; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c relay -n "__fish_relay_using_subcommand review; and __fish_seen_subcommand_from help" -f -a "flag" -d 'Ask for review: the package becomes awaiting_review (from draft, awaiting_review or revision_requested)'
complete -c relay -n "__fish_relay_using_subcommand review; and __fish_seen_subcommand_from help" -f -a "approve" -d 'Approve: the package becomes complete (from any status but complete)'
complete -c relay -n "__fish_relay_using_subcommand review; and __fish_seen_subcommand_from help" -f -a "request-changes" -d 'Send it back: awaiting_review becomes revision_requested'
complete -c relay -n "__fish_relay_using_subcommand review; and __fish_seen_subcommand_from help" -f -a "list" -d 'Packages awaiting review, oldest request first, with who flagged them and why'
complete -c relay -n "__fish_relay_using_subcommand review; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c relay -n "__fish_relay_using_subcommand retract" -l reason -d 'Why: kept with the retraction and shown in the record\'s history' -r
complete -c relay -n "__fish_relay_using_subcommand retract" -l actor -d 'Who is acting; default: [actor] id in config, then git user.email, then $USER' -r
complete -c relay -n "__fish_relay_using_subcommand retract" -l actor-type -d 'What kind of actor' -r -f -a "human\t''
agent\t''
script\t''"
complete -c relay -n "__fish_relay_using_subcommand retract" -l session -d 'The session (id or callsign) to record; default: this clone\'s current session' -r
complete -c relay -n "__fish_relay_using_subcommand retract" -l sign-with -d 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)' -r -F
complete -c relay -n "__fish_relay_using_subcommand retract" -l store -d 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here' -r -F
complete -c relay -n "__fish_relay_using_subcommand retract" -l project -d 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml' -r
complete -c relay -n "__fish_relay_using_subcommand retract" -l color -d 'When to color human output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c relay -n "__fish_relay_using_subcommand retract" -l redact-secrets -d 'For this command, store credentials found in the input as <REDACTED:rule-id>'
complete -c relay -n "__fish_relay_using_subcommand retract" -l allow-secrets -d 'For this command, store credentials found in the input as they are'
complete -c relay -n "__fish_relay_using_subcommand retract" -l sign -d 'Sign this command\'s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
complete -c relay -n "__fish_relay_using_subcommand retract" -l json -d 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
complete -c relay -n "__fish_relay_using_subcommand retract" -s q -l quiet -d 'Print only results: no notes or warnings on stderr'
complete -c relay -n "__fish_relay_using_subcommand retract" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c relay -n "__fish_relay_using_subcommand retract" -s V -l version -d 'Print version'
complete -c relay -n "__fish_relay_using_subcommand purge" -l sign-with -d 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)' -r -F
complete -c relay -n "__fish_relay_using_subcommand purge" -l store -d 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here' -r -F
complete -c relay -n "__fish_relay_using_subcommand purge" -l project -d 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml' -r
complete -c relay -n "__fish_relay_using_subcommand purge" -l color -d 'When to color human output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c relay -n "__fish_relay_using_subcommand purge" -l expired -d 'Remove records whose x-expires-at has passed'
complete -c relay -n "__fish_relay_using_subcommand purge" -l retracted -d 'Remove records that `relay retract` retracted'
complete -c relay -n "__fish_relay_using_subcommand purge" -l dry-run -d 'Say what would be removed; change nothing'
complete -c relay -n "__fish_relay_using_subcommand purge" -l no-backup -d 'Do not keep the old files under .relay/local/purged/'
complete -c relay -n "__fish_relay_using_subcommand purge" -l all-projects -d 'Every project, not just the selected one'
complete -c relay -n "__fish_relay_using_subcommand purge" -l redact-secrets -d 'For this command, store credentials found in the input as <REDACTED:rule-id>'
complete -c relay -n "__fish_relay_using_subcommand purge" -l allow-secrets -d 'For this command, store credentials found in the input as they are'
complete -c relay -n "__fish_relay_using_subcommand purge" -l sign -d 'Sign this command\'s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
complete -c relay -n "__fish_relay_using_subcommand purge" -l json -d 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
complete -c relay -n "__fish_relay_using_subcommand purge" -s q -l quiet -d 'Print only results: no notes or warnings on stderr'
complete -c relay -n "__fish_relay_using_subcommand purge" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c relay -n "__fish_relay_using_subcommand purge" -s V -l version -d 'Print version'
complete -c relay -n "__fish_relay_using_subcommand status" -l sign-with -d 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)' -r -F
complete -c relay -n "__fish_relay_using_subcommand status" -l store -d 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here' -r -F
complete -c relay -n "__fish_relay_using_subcommand status" -l project -d 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml' -r
complete -c relay -n "__fish_relay_using_subcommand status" -l color -d 'When to color human output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c relay -n "__fish_relay_using_subcommand status" -l redact-secrets -d 'For this command, store credentials found in the input as <REDACTED:rule-id>'
complete -c relay -n "__fish_relay_using_subcommand status" -l allow-secrets -d 'For this command, store credentials found in the input as they are'
complete -c relay -n "__fish_relay_using_subcommand status" -l sign -d 'Sign this command\'s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
complete -c relay -n "__fish_relay_using_subcommand status" -l json -d 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
complete -c relay -n "__fish_relay_using_subcommand status" -s q -l quiet -d 'Print only results: no notes or warnings on stderr'
complete -c relay -n "__fish_relay_using_subcommand status" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c relay -n "__fish_relay_using_subcommand status" -s V -l version -d 'Print version'
complete -c relay -n "__fish_relay_using_subcommand export" -l out -d 'A new or empty folder, or - for stdout' -r -F
complete -c relay -n "__fish_relay_using_subcommand export" -l share -d 'Apply the share profile [share.NAME] of config.toml: what may leave, dropped, redacted' -r
complete -c relay -n "__fish_relay_using_subcommand export" -l sign-with -d 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)' -r -F
complete -c relay -n "__fish_relay_using_subcommand export" -l store -d 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here' -r -F
complete -c relay -n "__fish_relay_using_subcommand export" -l project -d 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml' -r
complete -c relay -n "__fish_relay_using_subcommand export" -l color -d 'When to color human output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c relay -n "__fish_relay_using_subcommand export" -l all-projects -d 'Every project, not just the selected one'
complete -c relay -n "__fish_relay_using_subcommand export" -l redact-secrets -d 'For this command, store credentials found in the input as <REDACTED:rule-id>'
complete -c relay -n "__fish_relay_using_subcommand export" -l allow-secrets -d 'For this command, store credentials found in the input as they are'
complete -c relay -n "__fish_relay_using_subcommand export" -l sign -d 'Sign this command\'s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
complete -c relay -n "__fish_relay_using_subcommand export" -l json -d 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
complete -c relay -n "__fish_relay_using_subcommand export" -s q -l quiet -d 'Print only results: no notes or warnings on stderr'
complete -c relay -n "__fish_relay_using_subcommand export" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c relay -n "__fish_relay_using_subcommand export" -s V -l version -d 'Print version'
complete -c relay -n "__fish_relay_using_subcommand import" -l project-map -d 'Import project OLD as NEW (repeatable)' -r
complete -c relay -n "__fish_relay_using_subcommand import" -l on-conflict -d 'What to do with a record the store refuses: a package id held with other content or by another project, a package taken back in its review, a fact whose source package is missing (skip: leave it out and list it)' -r -f -a "fail\t''
skip\t''"
complete -c relay -n "__fish_relay_using_subcommand import" -l sign-with -d 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)' -r -F
complete -c relay -n "__fish_relay_using_subcommand import" -l store -d 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here' -r -F
complete -c relay -n "__fish_relay_using_subcommand import" -l project -d 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml' -r
complete -c relay -n "__fish_relay_using_subcommand import" -l color -d 'When to color human output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c relay -n "__fish_relay_using_subcommand import" -l dry-run -d 'Report what would change; write nothing'
complete -c relay -n "__fish_relay_using_subcommand import" -l force -d 'Import a backup folder that has no manifest'
complete -c relay -n "__fish_relay_using_subcommand import" -l redact-secrets -d 'For this command, store credentials found in the input as <REDACTED:rule-id>'
complete -c relay -n "__fish_relay_using_subcommand import" -l allow-secrets -d 'For this command, store credentials found in the input as they are'
complete -c relay -n "__fish_relay_using_subcommand import" -l sign -d 'Sign this command\'s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
complete -c relay -n "__fish_relay_using_subcommand import" -l json -d 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
complete -c relay -n "__fish_relay_using_subcommand import" -s q -l quiet -d 'Print only results: no notes or warnings on stderr'
complete -c relay -n "__fish_relay_using_subcommand import" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c relay -n "__fish_relay_using_subcommand import" -s V -l version -d 'Print version'
complete -c relay -n "__fish_relay_using_subcommand verify" -l sign-with -d 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)' -r -F
complete -c relay -n "__fish_relay_using_subcommand verify" -l store -d 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here' -r -F
complete -c relay -n "__fish_relay_using_subcommand verify" -l project -d 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml' -r
complete -c relay -n "__fish_relay_using_subcommand verify" -l color -d 'When to color human output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c relay -n "__fish_relay_using_subcommand verify" -l fix -d 'Repair what is safe, then check again'
complete -c relay -n "__fish_relay_using_subcommand verify" -l signatures -d 'Also judge every record version\'s signature against .relay/allowed_signers'
complete -c relay -n "__fish_relay_using_subcommand verify" -l redact-secrets -d 'For this command, store credentials found in the input as <REDACTED:rule-id>'
complete -c relay -n "__fish_relay_using_subcommand verify" -l allow-secrets -d 'For this command, store credentials found in the input as they are'
complete -c relay -n "__fish_relay_using_subcommand verify" -l sign -d 'Sign this command\'s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
complete -c relay -n "__fish_relay_using_subcommand verify" -l json -d 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
complete -c relay -n "__fish_relay_using_subcommand verify" -s q -l quiet -d 'Print only results: no notes or warnings on stderr'
complete -c relay -n "__fish_relay_using_subcommand verify" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c relay -n "__fish_relay_using_subcommand verify" -s V -l version -d 'Print version'
complete -c relay -n "__fish_relay_using_subcommand doctor" -l server -d 'A relay server to check: it must answer GET URL/v1/conformance (http:// only)' -r
complete -c relay -n "__fish_relay_using_subcommand doctor" -l sign-with -d 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)' -r -F
complete -c relay -n "__fish_relay_using_subcommand doctor" -l store -d 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here' -r -F
complete -c relay -n "__fish_relay_using_subcommand doctor" -l project -d 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml' -r
complete -c relay -n "__fish_relay_using_subcommand doctor" -l color -d 'When to color human output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c relay -n "__fish_relay_using_subcommand doctor" -l redact-secrets -d 'For this command, store credentials found in the input as <REDACTED:rule-id>'
complete -c relay -n "__fish_relay_using_subcommand doctor" -l allow-secrets -d 'For this command, store credentials found in the input as they are'
complete -c relay -n "__fish_relay_using_subcommand doctor" -l sign -d 'Sign this command\'s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
complete -c relay -n "__fish_relay_using_subcommand doctor" -l json -d 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
complete -c relay -n "__fish_relay_using_subcommand doctor" -s q -l quiet -d 'Print only results: no notes or warnings on stderr'
complete -c relay -n "__fish_relay_using_subcommand doctor" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c relay -n "__fish_relay_using_subcommand doctor" -s V -l version -d 'Print version'
complete -c relay -n "__fish_relay_using_subcommand resolve" -l sign-with -d 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)' -r -F
complete -c relay -n "__fish_relay_using_subcommand resolve" -l store -d 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here' -r -F
complete -c relay -n "__fish_relay_using_subcommand resolve" -l project -d 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml' -r
complete -c relay -n "__fish_relay_using_subcommand resolve" -l color -d 'When to color human output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c relay -n "__fish_relay_using_subcommand resolve" -l redact-secrets -d 'For this command, store credentials found in the input as <REDACTED:rule-id>'
complete -c relay -n "__fish_relay_using_subcommand resolve" -l allow-secrets -d 'For this command, store credentials found in the input as they are'
complete -c relay -n "__fish_relay_using_subcommand resolve" -l sign -d 'Sign this command\'s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
complete -c relay -n "__fish_relay_using_subcommand resolve" -l json -d 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
complete -c relay -n "__fish_relay_using_subcommand resolve" -s q -l quiet -d 'Print only results: no notes or warnings on stderr'
complete -c relay -n "__fish_relay_using_subcommand resolve" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c relay -n "__fish_relay_using_subcommand resolve" -s V -l version -d 'Print version'
complete -c relay -n "__fish_relay_using_subcommand merge" -l sign-with -d 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)' -r -F
complete -c relay -n "__fish_relay_using_subcommand merge" -l store -d 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here' -r -F
complete -c relay -n "__fish_relay_using_subcommand merge" -l project -d 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml' -r
complete -c relay -n "__fish_relay_using_subcommand merge" -l color -d 'When to color human output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c relay -n "__fish_relay_using_subcommand merge" -l no-commit -d 'Leave the merge staged (MERGE_HEAD set) for `git commit` instead of committing'
complete -c relay -n "__fish_relay_using_subcommand merge" -l redact-secrets -d 'For this command, store credentials found in the input as <REDACTED:rule-id>'
complete -c relay -n "__fish_relay_using_subcommand merge" -l allow-secrets -d 'For this command, store credentials found in the input as they are'
complete -c relay -n "__fish_relay_using_subcommand merge" -l sign -d 'Sign this command\'s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
complete -c relay -n "__fish_relay_using_subcommand merge" -l json -d 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
complete -c relay -n "__fish_relay_using_subcommand merge" -s q -l quiet -d 'Print only results: no notes or warnings on stderr'
complete -c relay -n "__fish_relay_using_subcommand merge" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c relay -n "__fish_relay_using_subcommand merge" -s V -l version -d 'Print version'
complete -c relay -n "__fish_relay_using_subcommand keys; and not __fish_seen_subcommand_from generate add rotate list help" -l sign-with -d 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)' -r -F
complete -c relay -n "__fish_relay_using_subcommand keys; and not __fish_seen_subcommand_from generate add rotate list help" -l store -d 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here' -r -F
complete -c relay -n "__fish_relay_using_subcommand keys; and not __fish_seen_subcommand_from generate add rotate list help" -l project -d 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml' -r
complete -c relay -n "__fish_relay_using_subcommand keys; and not __fish_seen_subcommand_from generate add rotate list help" -l color -d 'When to color human output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c relay -n "__fish_relay_using_subcommand keys; and not __fish_seen_subcommand_from generate add rotate list help" -l redact-secrets -d 'For this command, store credentials found in the input as <REDACTED:rule-id>'
complete -c relay -n "__fish_relay_using_subcommand keys; and not __fish_seen_subcommand_from generate add rotate list help" -l allow-secrets -d 'For this command, store credentials found in the input as they are'
complete -c relay -n "__fish_relay_using_subcommand keys; and not __fish_seen_subcommand_from generate add rotate list help" -l sign -d 'Sign this command\'s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
complete -c relay -n "__fish_relay_using_subcommand keys; and not __fish_seen_subcommand_from generate add rotate list help" -l json -d 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
complete -c relay -n "__fish_relay_using_subcommand keys; and not __fish_seen_subcommand_from generate add rotate list help" -s q -l quiet -d 'Print only results: no notes or warnings on stderr'
complete -c relay -n "__fish_relay_using_subcommand keys; and not __fish_seen_subcommand_from generate add rotate list help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c relay -n "__fish_relay_using_subcommand keys; and not __fish_seen_subcommand_from generate add rotate list help" -s V -l version -d 'Print version'
complete -c relay -n "__fish_relay_using_subcommand keys; and not __fish_seen_subcommand_from generate add rotate list help" -f -a "generate" -d 'Make an Ed25519 key (mode 0600, and KEY.pub) and print its allowed_signers line'
complete -c relay -n "__fish_relay_using_subcommand keys; and not __fish_seen_subcommand_from generate add rotate list help" -f -a "add" -d 'Allow a key you already have: append its allowed_signers line for you'
complete -c relay -n "__fish_relay_using_subcommand keys; and not __fish_seen_subcommand_from generate add rotate list help" -f -a "rotate" -d 'Move to a new signing key: a key rotation record signed with the current key, and the new key\'s line in .relay/allowed_signers'
complete -c relay -n "__fish_relay_using_subcommand keys; and not __fish_seen_subcommand_from generate add rotate list help" -f -a "list" -d 'The entries of .relay/allowed_signers: principals, key type, fingerprint, options'
complete -c relay -n "__fish_relay_using_subcommand keys; and not __fish_seen_subcommand_from generate add rotate list help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c relay -n "__fish_relay_using_subcommand keys; and __fish_seen_subcommand_from generate" -l out -d 'Where to write the private key (the public key goes to PATH.pub)' -r -F
complete -c relay -n "__fish_relay_using_subcommand keys; and __fish_seen_subcommand_from generate" -l actor -d 'The actor the key signs as; default: [actor] id in config, then git user.email, then $USER' -r
complete -c relay -n "__fish_relay_using_subcommand keys; and __fish_seen_subcommand_from generate" -l sign-with -d 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)' -r -F
complete -c relay -n "__fish_relay_using_subcommand keys; and __fish_seen_subcommand_from generate" -l store -d 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here' -r -F
complete -c relay -n "__fish_relay_using_subcommand keys; and __fish_seen_subcommand_from generate" -l project -d 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml' -r
complete -c relay -n "__fish_relay_using_subcommand keys; and __fish_seen_subcommand_from generate" -l color -d 'When to color human output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c relay -n "__fish_relay_using_subcommand keys; and __fish_seen_subcommand_from generate" -l add -d 'Also append the line to .relay/allowed_signers'
complete -c relay -n "__fish_relay_using_subcommand keys; and __fish_seen_subcommand_from generate" -l redact-secrets -d 'For this command, store credentials found in the input as <REDACTED:rule-id>'
complete -c relay -n "__fish_relay_using_subcommand keys; and __fish_seen_subcommand_from generate" -l allow-secrets -d 'For this command, store credentials found in the input as they are'
complete -c relay -n "__fish_relay_using_subcommand keys; and __fish_seen_subcommand_from generate" -l sign -d 'Sign this command\'s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
complete -c relay -n "__fish_relay_using_subcommand keys; and __fish_seen_subcommand_from generate" -l json -d 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
complete -c relay -n "__fish_relay_using_subcommand keys; and __fish_seen_subcommand_from generate" -s q -l quiet -d 'Print only results: no notes or warnings on stderr'
complete -c relay -n "__fish_relay_using_subcommand keys; and __fish_seen_subcommand_from generate" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c relay -n "__fish_relay_using_subcommand keys; and __fish_seen_subcommand_from generate" -s V -l version -d 'Print version'
complete -c relay -n "__fish_relay_using_subcommand keys; and __fish_seen_subcommand_from add" -l actor -d 'The actor the key signs as; default: [actor] id in config, then git user.email, then $USER' -r
complete -c relay -n "__fish_relay_using_subcommand keys; and __fish_seen_subcommand_from add" -l sign-with -d 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)' -r -F
complete -c relay -n "__fish_relay_using_subcommand keys; and __fish_seen_subcommand_from add" -l store -d 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here' -r -F
complete -c relay -n "__fish_relay_using_subcommand keys; and __fish_seen_subcommand_from add" -l project -d 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml' -r
complete -c relay -n "__fish_relay_using_subcommand keys; and __fish_seen_subcommand_from add" -l color -d 'When to color human output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c relay -n "__fish_relay_using_subcommand keys; and __fish_seen_subcommand_from add" -l redact-secrets -d 'For this command, store credentials found in the input as <REDACTED:rule-id>'
complete -c relay -n "__fish_relay_using_subcommand keys; and __fish_seen_subcommand_from add" -l allow-secrets -d 'For this command, store credentials found in the input as they are'
complete -c relay -n "__fish_relay_using_subcommand keys; and __fish_seen_subcommand_from add" -l sign -d 'Sign this command\'s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
complete -c relay -n "__fish_relay_using_subcommand keys; and __fish_seen_subcommand_from add" -l json -d 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
complete -c relay -n "__fish_relay_using_subcommand keys; and __fish_seen_subcommand_from add" -s q -l quiet -d 'Print only results: no notes or warnings on stderr'
complete -c relay -n "__fish_relay_using_subcommand keys; and __fish_seen_subcommand_from add" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c relay -n "__fish_relay_using_subcommand keys; and __fish_seen_subcommand_from add" -s V -l version -d 'Print version'
complete -c relay -n "__fish_relay_using_subcommand keys; and __fish_seen_subcommand_from rotate" -l new -d 'The new key: an OpenSSH key file (private, or PATH.pub), made there as `keys generate` would when PATH does not exist yet' -r -F
complete -c relay -n "__fish_relay_using_subcommand keys; and __fish_seen_subcommand_from rotate" -l actor -d 'The actor whose key it is; default: [actor] id in config, then git user.email, then $USER' -r
complete -c relay -n "__fish_relay_using_subcommand keys; and __fish_seen_subcommand_from rotate" -l sign-with -d 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)' -r -F
complete -c relay -n "__fish_relay_using_subcommand keys; and __fish_seen_subcommand_from rotate" -l store -d 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here' -r -F
complete -c relay -n "__fish_relay_using_subcommand keys; and __fish_seen_subcommand_from rotate" -l project -d 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml' -r
complete -c relay -n "__fish_relay_using_subcommand keys; and __fish_seen_subcommand_from rotate" -l color -d 'When to color human output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c relay -n "__fish_relay_using_subcommand keys; and __fish_seen_subcommand_from rotate" -l redact-secrets -d 'For this command, store credentials found in the input as <REDACTED:rule-id>'
complete -c relay -n "__fish_relay_using_subcommand keys; and __fish_seen_subcommand_from rotate" -l allow-secrets -d 'For this command, store credentials found in the input as they are'
complete -c relay -n "__fish_relay_using_subcommand keys; and __fish_seen_subcommand_from rotate" -l sign -d 'Sign this command\'s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
complete -c relay -n "__fish_relay_using_subcommand keys; and __fish_seen_subcommand_from rotate" -l json -d 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
complete -c relay -n "__fish_relay_using_subcommand keys; and __fish_seen_subcommand_from rotate" -s q -l quiet -d 'Print only results: no notes or warnings on stderr'
complete -c relay -n "__fish_relay_using_subcommand keys; and __fish_seen_subcommand_from rotate" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c relay -n "__fish_relay_using_subcommand keys; and __fish_seen_subcommand_from rotate" -s V -l version -d 'Print version'
complete -c relay -n "__fish_relay_using_subcommand keys; and __fish_seen_subcommand_from list" -l sign-with -d 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)' -r -F
complete -c relay -n "__fish_relay_using_subcommand keys; and __fish_seen_subcommand_from list" -l store -d 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here' -r -F
complete -c relay -n "__fish_relay_using_subcommand keys; and __fish_seen_subcommand_from list" -l project -d 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml' -r
complete -c relay -n "__fish_relay_using_subcommand keys; and __fish_seen_subcommand_from list" -l color -d 'When to color human output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c relay -n "__fish_relay_using_subcommand keys; and __fish_seen_subcommand_from list" -l redact-secrets -d 'For this command, store credentials found in the input as <REDACTED:rule-id>'
complete -c relay -n "__fish_relay_using_subcommand keys; and __fish_seen_subcommand_from list" -l allow-secrets -d 'For this command, store credentials found in the input as they are'
complete -c relay -n "__fish_relay_using_subcommand keys; and __fish_seen_subcommand_from list" -l sign -d 'Sign this command\'s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
complete -c relay -n "__fish_relay_using_subcommand keys; and __fish_seen_subcommand_from list" -l json -d 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
complete -c relay -n "__fish_relay_using_subcommand keys; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Print only results: no notes or warnings on stderr'
complete -c relay -n "__fish_relay_using_subcommand keys; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c relay -n "__fish_relay_using_subcommand keys; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c relay -n "__fish_relay_using_subcommand keys; and __fish_seen_subcommand_from help" -f -a "generate" -d 'Make an Ed25519 key (mode 0600, and KEY.pub) and print its allowed_signers line'
complete -c relay -n "__fish_relay_using_subcommand keys; and __fish_seen_subcommand_from help" -f -a "add" -d 'Allow a key you already have: append its allowed_signers line for you'
complete -c relay -n "__fish_relay_using_subcommand keys; and __fish_seen_subcommand_from help" -f -a "rotate" -d 'Move to a new signing key: a key rotation record signed with the current key, and the new key\'s line in .relay/allowed_signers'
complete -c relay -n "__fish_relay_using_subcommand keys; and __fish_seen_subcommand_from help" -f -a "list" -d 'The entries of .relay/allowed_signers: principals, key type, fingerprint, options'
complete -c relay -n "__fish_relay_using_subcommand keys; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c relay -n "__fish_relay_using_subcommand hook; and not __fish_seen_subcommand_from install uninstall flush reconcile merge-driver run help" -l sign-with -d 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)' -r -F
complete -c relay -n "__fish_relay_using_subcommand hook; and not __fish_seen_subcommand_from install uninstall flush reconcile merge-driver run help" -l store -d 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here' -r -F
complete -c relay -n "__fish_relay_using_subcommand hook; and not __fish_seen_subcommand_from install uninstall flush reconcile merge-driver run help" -l project -d 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml' -r
complete -c relay -n "__fish_relay_using_subcommand hook; and not __fish_seen_subcommand_from install uninstall flush reconcile merge-driver run help" -l color -d 'When to color human output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c relay -n "__fish_relay_using_subcommand hook; and not __fish_seen_subcommand_from install uninstall flush reconcile merge-driver run help" -l redact-secrets -d 'For this command, store credentials found in the input as <REDACTED:rule-id>'
complete -c relay -n "__fish_relay_using_subcommand hook; and not __fish_seen_subcommand_from install uninstall flush reconcile merge-driver run help" -l allow-secrets -d 'For this command, store credentials found in the input as they are'
complete -c relay -n "__fish_relay_using_subcommand hook; and not __fish_seen_subcommand_from install uninstall flush reconcile merge-driver run help" -l sign -d 'Sign this command\'s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
complete -c relay -n "__fish_relay_using_subcommand hook; and not __fish_seen_subcommand_from install uninstall flush reconcile merge-driver run help" -l json -d 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
complete -c relay -n "__fish_relay_using_subcommand hook; and not __fish_seen_subcommand_from install uninstall flush reconcile merge-driver run help" -s q -l quiet -d 'Print only results: no notes or warnings on stderr'
complete -c relay -n "__fish_relay_using_subcommand hook; and not __fish_seen_subcommand_from install uninstall flush reconcile merge-driver run help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c relay -n "__fish_relay_using_subcommand hook; and not __fish_seen_subcommand_from install uninstall flush reconcile merge-driver run help" -s V -l version -d 'Print version'
complete -c relay -n "__fish_relay_using_subcommand hook; and not __fish_seen_subcommand_from install uninstall flush reconcile merge-driver run help" -f -a "install" -d 'Install hooks (installing twice changes nothing)'
complete -c relay -n "__fish_relay_using_subcommand hook; and not __fish_seen_subcommand_from install uninstall flush reconcile merge-driver run help" -f -a "uninstall" -d 'Remove relay\'s hooks and restore what was there before'
complete -c relay -n "__fish_relay_using_subcommand hook; and not __fish_seen_subcommand_from install uninstall flush reconcile merge-driver run help" -f -a "flush" -d 'Move what relay\'s hooks queued into the store\'s logs (the pre-commit hook runs it)'
complete -c relay -n "__fish_relay_using_subcommand hook; and not __fish_seen_subcommand_from install uninstall flush reconcile merge-driver run help" -f -a "reconcile" -d 'Put back into the queue what a git move took from the store (post-merge and post-rewrite run it)'
complete -c relay -n "__fish_relay_using_subcommand hook; and not __fish_seen_subcommand_from install uninstall flush reconcile merge-driver run help" -f -a "merge-driver" -d 'Merge two versions of a store log (git runs it: `merge.relay.driver`)'
complete -c relay -n "__fish_relay_using_subcommand hook; and not __fish_seen_subcommand_from install uninstall flush reconcile merge-driver run help" -f -a "run" -d 'Handle one agent event (what the installed agent hooks run)'
complete -c relay -n "__fish_relay_using_subcommand hook; and not __fish_seen_subcommand_from install uninstall flush reconcile merge-driver run help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from install" -l sign-with -d 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)' -r -F
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from install" -l store -d 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here' -r -F
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from install" -l project -d 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml' -r
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from install" -l color -d 'When to color human output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from install" -l git -d 'The git hooks of the repository you are in'
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from install" -l claude -d 'Claude Code\'s .claude/settings.json in the repository\'s top folder'
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from install" -l codex -d 'Codex\'s .codex/hooks.json in the repository\'s top folder'
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from install" -l gemini -d 'Gemini CLI\'s .gemini/settings.json in the repository\'s top folder'
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from install" -l cursor -d 'Cursor\'s .cursor/hooks.json in the repository\'s top folder'
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from install" -l opencode -d 'An OpenCode plugin, .opencode/plugins/relay.js, in the repository\'s top folder'
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from install" -l redact-secrets -d 'For this command, store credentials found in the input as <REDACTED:rule-id>'
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from install" -l allow-secrets -d 'For this command, store credentials found in the input as they are'
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from install" -l sign -d 'Sign this command\'s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from install" -l json -d 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from install" -s q -l quiet -d 'Print only results: no notes or warnings on stderr'
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from install" -s h -l help -d 'Print help'
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from install" -s V -l version -d 'Print version'
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from uninstall" -l sign-with -d 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)' -r -F
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from uninstall" -l store -d 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here' -r -F
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from uninstall" -l project -d 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml' -r
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from uninstall" -l color -d 'When to color human output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from uninstall" -l git -d 'The git hooks of the repository you are in'
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from uninstall" -l claude -d 'Claude Code\'s .claude/settings.json in the repository\'s top folder'
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from uninstall" -l codex -d 'Codex\'s .codex/hooks.json in the repository\'s top folder'
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from uninstall" -l gemini -d 'Gemini CLI\'s .gemini/settings.json in the repository\'s top folder'
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from uninstall" -l cursor -d 'Cursor\'s .cursor/hooks.json in the repository\'s top folder'
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from uninstall" -l opencode -d 'An OpenCode plugin, .opencode/plugins/relay.js, in the repository\'s top folder'
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from uninstall" -l redact-secrets -d 'For this command, store credentials found in the input as <REDACTED:rule-id>'
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from uninstall" -l allow-secrets -d 'For this command, store credentials found in the input as they are'
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from uninstall" -l sign -d 'Sign this command\'s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from uninstall" -l json -d 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from uninstall" -s q -l quiet -d 'Print only results: no notes or warnings on stderr'
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from uninstall" -s h -l help -d 'Print help'
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from uninstall" -s V -l version -d 'Print version'
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from flush" -l sign-with -d 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)' -r -F
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from flush" -l store -d 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here' -r -F
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from flush" -l project -d 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml' -r
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from flush" -l color -d 'When to color human output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from flush" -l stage -d 'Also add the store files it changed to git\'s index (what the pre-commit hook asks)'
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from flush" -l redact-secrets -d 'For this command, store credentials found in the input as <REDACTED:rule-id>'
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from flush" -l allow-secrets -d 'For this command, store credentials found in the input as they are'
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from flush" -l sign -d 'Sign this command\'s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from flush" -l json -d 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from flush" -s q -l quiet -d 'Print only results: no notes or warnings on stderr'
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from flush" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from flush" -s V -l version -d 'Print version'
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from reconcile" -l sign-with -d 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)' -r -F
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from reconcile" -l store -d 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here' -r -F
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from reconcile" -l project -d 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml' -r
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from reconcile" -l color -d 'When to color human output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from reconcile" -l redact-secrets -d 'For this command, store credentials found in the input as <REDACTED:rule-id>'
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from reconcile" -l allow-secrets -d 'For this command, store credentials found in the input as they are'
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from reconcile" -l sign -d 'Sign this command\'s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from reconcile" -l json -d 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from reconcile" -s q -l quiet -d 'Print only results: no notes or warnings on stderr'
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from reconcile" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from reconcile" -s V -l version -d 'Print version'
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from merge-driver" -l sign-with -d 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)' -r -F
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from merge-driver" -l store -d 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here' -r -F
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from merge-driver" -l project -d 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml' -r
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from merge-driver" -l color -d 'When to color human output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from merge-driver" -l redact-secrets -d 'For this command, store credentials found in the input as <REDACTED:rule-id>'
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from merge-driver" -l allow-secrets -d 'For this command, store credentials found in the input as they are'
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from merge-driver" -l sign -d 'Sign this command\'s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from merge-driver" -l json -d 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from merge-driver" -s q -l quiet -d 'Print only results: no notes or warnings on stderr'
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from merge-driver" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from merge-driver" -s V -l version -d 'Print version'
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from run" -l agent -d 'The agent that sends it' -r -f -a "claude\t'Claude Code'
codex\t'Codex'
gemini\t'Gemini CLI'
cursor\t'Cursor'
opencode\t'OpenCode (through relay\'s plugin)'"
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from run" -l max-chars -d 'SessionStart\'s briefing budget in characters [default: 9000 for claude and gemini, 8000 for codex, cursor and opencode]' -r
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from run" -l sign-with -d 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)' -r -F
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from run" -l store -d 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here' -r -F
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from run" -l project -d 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml' -r
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from run" -l color -d 'When to color human output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from run" -l redact-secrets -d 'For this command, store credentials found in the input as <REDACTED:rule-id>'
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from run" -l allow-secrets -d 'For this command, store credentials found in the input as they are'
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from run" -l sign -d 'Sign this command\'s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from run" -l json -d 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from run" -s q -l quiet -d 'Print only results: no notes or warnings on stderr'
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from run" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from run" -s V -l version -d 'Print version'
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from help" -f -a "install" -d 'Install hooks (installing twice changes nothing)'
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from help" -f -a "uninstall" -d 'Remove relay\'s hooks and restore what was there before'
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from help" -f -a "flush" -d 'Move what relay\'s hooks queued into the store\'s logs (the pre-commit hook runs it)'
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from help" -f -a "reconcile" -d 'Put back into the queue what a git move took from the store (post-merge and post-rewrite run it)'
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from help" -f -a "merge-driver" -d 'Merge two versions of a store log (git runs it: `merge.relay.driver`)'
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from help" -f -a "run" -d 'Handle one agent event (what the installed agent hooks run)'
complete -c relay -n "__fish_relay_using_subcommand hook; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c relay -n "__fish_relay_using_subcommand scan" -l sign-with -d 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)' -r -F
complete -c relay -n "__fish_relay_using_subcommand scan" -l store -d 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here' -r -F
complete -c relay -n "__fish_relay_using_subcommand scan" -l project -d 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml' -r
complete -c relay -n "__fish_relay_using_subcommand scan" -l color -d 'When to color human output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c relay -n "__fish_relay_using_subcommand scan" -l staged -d 'Only the store lines staged for commit'
complete -c relay -n "__fish_relay_using_subcommand scan" -l redact-secrets -d 'For this command, store credentials found in the input as <REDACTED:rule-id>'
complete -c relay -n "__fish_relay_using_subcommand scan" -l allow-secrets -d 'For this command, store credentials found in the input as they are'
complete -c relay -n "__fish_relay_using_subcommand scan" -l sign -d 'Sign this command\'s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
complete -c relay -n "__fish_relay_using_subcommand scan" -l json -d 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
complete -c relay -n "__fish_relay_using_subcommand scan" -s q -l quiet -d 'Print only results: no notes or warnings on stderr'
complete -c relay -n "__fish_relay_using_subcommand scan" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c relay -n "__fish_relay_using_subcommand scan" -s V -l version -d 'Print version'
complete -c relay -n "__fish_relay_using_subcommand conformance" -l model -d 'The embedding model\'s folder (see `relay search --help`)' -r -F
complete -c relay -n "__fish_relay_using_subcommand conformance" -l check -d 'Run the conformance test suite instead: against this build on a scratch store it deletes after (no URL), or against the server at this http or https URL (with --project ID, an existing project to write into, or --scratch-ok)' -r
complete -c relay -n "__fish_relay_using_subcommand conformance" -l token -d 'With --check: the token to send as `Authorization: Bearer TOKEN`' -r
complete -c relay -n "__fish_relay_using_subcommand conformance" -l timeout -d 'With --check: the seconds one request may take' -r
complete -c relay -n "__fish_relay_using_subcommand conformance" -l sign-with -d 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)' -r -F
complete -c relay -n "__fish_relay_using_subcommand conformance" -l store -d 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here' -r -F
complete -c relay -n "__fish_relay_using_subcommand conformance" -l project -d 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml' -r
complete -c relay -n "__fish_relay_using_subcommand conformance" -l color -d 'When to color human output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c relay -n "__fish_relay_using_subcommand conformance" -l scratch-ok -d 'With --check URL: the store behind URL is a scratch one, where the suite may make a project and leave it archived'
complete -c relay -n "__fish_relay_using_subcommand conformance" -l redact-secrets -d 'For this command, store credentials found in the input as <REDACTED:rule-id>'
complete -c relay -n "__fish_relay_using_subcommand conformance" -l allow-secrets -d 'For this command, store credentials found in the input as they are'
complete -c relay -n "__fish_relay_using_subcommand conformance" -l sign -d 'Sign this command\'s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
complete -c relay -n "__fish_relay_using_subcommand conformance" -l json -d 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
complete -c relay -n "__fish_relay_using_subcommand conformance" -s q -l quiet -d 'Print only results: no notes or warnings on stderr'
complete -c relay -n "__fish_relay_using_subcommand conformance" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c relay -n "__fish_relay_using_subcommand conformance" -s V -l version -d 'Print version'
complete -c relay -n "__fish_relay_using_subcommand completions" -l sign-with -d 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)' -r -F
complete -c relay -n "__fish_relay_using_subcommand completions" -l store -d 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here' -r -F
complete -c relay -n "__fish_relay_using_subcommand completions" -l project -d 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml' -r
complete -c relay -n "__fish_relay_using_subcommand completions" -l color -d 'When to color human output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c relay -n "__fish_relay_using_subcommand completions" -l redact-secrets -d 'For this command, store credentials found in the input as <REDACTED:rule-id>'
complete -c relay -n "__fish_relay_using_subcommand completions" -l allow-secrets -d 'For this command, store credentials found in the input as they are'
complete -c relay -n "__fish_relay_using_subcommand completions" -l sign -d 'Sign this command\'s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
complete -c relay -n "__fish_relay_using_subcommand completions" -l json -d 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
complete -c relay -n "__fish_relay_using_subcommand completions" -s q -l quiet -d 'Print only results: no notes or warnings on stderr'
complete -c relay -n "__fish_relay_using_subcommand completions" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c relay -n "__fish_relay_using_subcommand completions" -s V -l version -d 'Print version'
complete -c relay -n "__fish_relay_using_subcommand onboard" -l write -d 'Write the block into FILE (atomically) instead of printing it' -r -F
complete -c relay -n "__fish_relay_using_subcommand onboard" -l sign-with -d 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)' -r -F
complete -c relay -n "__fish_relay_using_subcommand onboard" -l store -d 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here' -r -F
complete -c relay -n "__fish_relay_using_subcommand onboard" -l project -d 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml' -r
complete -c relay -n "__fish_relay_using_subcommand onboard" -l color -d 'When to color human output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c relay -n "__fish_relay_using_subcommand onboard" -l redact-secrets -d 'For this command, store credentials found in the input as <REDACTED:rule-id>'
complete -c relay -n "__fish_relay_using_subcommand onboard" -l allow-secrets -d 'For this command, store credentials found in the input as they are'
complete -c relay -n "__fish_relay_using_subcommand onboard" -l sign -d 'Sign this command\'s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
complete -c relay -n "__fish_relay_using_subcommand onboard" -l json -d 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
complete -c relay -n "__fish_relay_using_subcommand onboard" -s q -l quiet -d 'Print only results: no notes or warnings on stderr'
complete -c relay -n "__fish_relay_using_subcommand onboard" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c relay -n "__fish_relay_using_subcommand onboard" -s V -l version -d 'Print version'
complete -c relay -n "__fish_relay_using_subcommand mcp" -l actor -d 'Who is acting; default: [actor] id in config, then git user.email, then $USER' -r
complete -c relay -n "__fish_relay_using_subcommand mcp" -l actor-type -d 'What kind of actor' -r -f -a "human\t''
agent\t''
script\t''"
complete -c relay -n "__fish_relay_using_subcommand mcp" -l session -d 'The session (id or callsign) to record; default: this clone\'s current session' -r
complete -c relay -n "__fish_relay_using_subcommand mcp" -l model -d 'The embedding model for semantic and hybrid search (see `relay search --help`)' -r -F
complete -c relay -n "__fish_relay_using_subcommand mcp" -l sign-with -d 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)' -r -F
complete -c relay -n "__fish_relay_using_subcommand mcp" -l store -d 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here' -r -F
complete -c relay -n "__fish_relay_using_subcommand mcp" -l project -d 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml' -r
complete -c relay -n "__fish_relay_using_subcommand mcp" -l color -d 'When to color human output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c relay -n "__fish_relay_using_subcommand mcp" -l redact-secrets -d 'For this command, store credentials found in the input as <REDACTED:rule-id>'
complete -c relay -n "__fish_relay_using_subcommand mcp" -l allow-secrets -d 'For this command, store credentials found in the input as they are'
complete -c relay -n "__fish_relay_using_subcommand mcp" -l sign -d 'Sign this command\'s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
complete -c relay -n "__fish_relay_using_subcommand mcp" -l json -d 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
complete -c relay -n "__fish_relay_using_subcommand mcp" -s q -l quiet -d 'Print only results: no notes or warnings on stderr'
complete -c relay -n "__fish_relay_using_subcommand mcp" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c relay -n "__fish_relay_using_subcommand mcp" -s V -l version -d 'Print version'
complete -c relay -n "__fish_relay_using_subcommand watch" -l since -d 'Where to start: `now` (the default), `beginning`, or a cursor from an earlier event' -r
complete -c relay -n "__fish_relay_using_subcommand watch" -l kind -d 'The kinds to print, comma-separated: package, transition, fact, session, project, retracted, expired (default: all). A hidden package or fact comes as retracted or expired when its own kind is asked for. Resync events always come' -r
complete -c relay -n "__fish_relay_using_subcommand watch" -l until-idle -d 'Exit after SECONDS with no new event' -r
complete -c relay -n "__fish_relay_using_subcommand watch" -l sign-with -d 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)' -r -F
complete -c relay -n "__fish_relay_using_subcommand watch" -l store -d 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here' -r -F
complete -c relay -n "__fish_relay_using_subcommand watch" -l project -d 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml' -r
complete -c relay -n "__fish_relay_using_subcommand watch" -l color -d 'When to color human output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c relay -n "__fish_relay_using_subcommand watch" -l all-projects -d 'Every project, including those created while watching (default: the current project)'
complete -c relay -n "__fish_relay_using_subcommand watch" -l once -d 'Print what is there after --since, then exit'
complete -c relay -n "__fish_relay_using_subcommand watch" -l cursor -d 'Print the cursor of the current end of the store (for a later --since) and exit'
complete -c relay -n "__fish_relay_using_subcommand watch" -l redact-secrets -d 'For this command, store credentials found in the input as <REDACTED:rule-id>'
complete -c relay -n "__fish_relay_using_subcommand watch" -l allow-secrets -d 'For this command, store credentials found in the input as they are'
complete -c relay -n "__fish_relay_using_subcommand watch" -l sign -d 'Sign this command\'s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
complete -c relay -n "__fish_relay_using_subcommand watch" -l json -d 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
complete -c relay -n "__fish_relay_using_subcommand watch" -s q -l quiet -d 'Print only results: no notes or warnings on stderr'
complete -c relay -n "__fish_relay_using_subcommand watch" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c relay -n "__fish_relay_using_subcommand watch" -s V -l version -d 'Print version'
complete -c relay -n "__fish_relay_using_subcommand serve" -l listen -d 'The address to listen on, IP:PORT or NAME:PORT (localhost:7700 binds loopback; port 0: any free port). Only loopback until a token exists' -r
complete -c relay -n "__fish_relay_using_subcommand serve" -l max-body -d 'The largest request body, in bytes (larger: 413)' -r
complete -c relay -n "__fish_relay_using_subcommand serve" -l timeout -d 'Seconds a request may take to arrive and be answered (slower: 408, or for headers the connection is closed)' -r
complete -c relay -n "__fish_relay_using_subcommand serve" -l max-streams -d 'The most event streams (/v1/projects/{id}/events, GET /mcp) open at once; past it a new one is refused with 503 and Retry-After. An open stream holds a socket, no thread' -r
complete -c relay -n "__fish_relay_using_subcommand serve" -l max-streams-per-caller -d 'The most event streams one caller (a token, a console login, the local user) holds open; past it its new one is refused with 429 and Retry-After' -r
complete -c relay -n "__fish_relay_using_subcommand serve" -l model -d 'The embedding model for semantic and hybrid search (see `relay search --help`)' -r -F
complete -c relay -n "__fish_relay_using_subcommand serve" -l allow-host -d 'Answer requests whose Host is NAME too (repeatable): the name clients reach the server by, behind a proxy or under a DNS name. NAME matches any port, NAME:PORT that port only. Without it, only the listening address and localhost are answered (421 otherwise), so that a web page cannot reach the server under a name of its own' -r
complete -c relay -n "__fish_relay_using_subcommand serve" -l actor -d 'Who is acting; default: [actor] id in config, then git user.email, then $USER' -r
complete -c relay -n "__fish_relay_using_subcommand serve" -l actor-type -d 'What kind of actor' -r -f -a "human\t''
agent\t''
script\t''"
complete -c relay -n "__fish_relay_using_subcommand serve" -l session -d 'The session (id or callsign) to record; default: this clone\'s current session' -r
complete -c relay -n "__fish_relay_using_subcommand serve" -l sign-with -d 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)' -r -F
complete -c relay -n "__fish_relay_using_subcommand serve" -l store -d 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here' -r -F
complete -c relay -n "__fish_relay_using_subcommand serve" -l project -d 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml' -r
complete -c relay -n "__fish_relay_using_subcommand serve" -l color -d 'When to color human output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c relay -n "__fish_relay_using_subcommand serve" -l redact-secrets -d 'For this command, store credentials found in the input as <REDACTED:rule-id>'
complete -c relay -n "__fish_relay_using_subcommand serve" -l allow-secrets -d 'For this command, store credentials found in the input as they are'
complete -c relay -n "__fish_relay_using_subcommand serve" -l sign -d 'Sign this command\'s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
complete -c relay -n "__fish_relay_using_subcommand serve" -l json -d 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
complete -c relay -n "__fish_relay_using_subcommand serve" -s q -l quiet -d 'Print only results: no notes or warnings on stderr'
complete -c relay -n "__fish_relay_using_subcommand serve" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c relay -n "__fish_relay_using_subcommand serve" -s V -l version -d 'Print version'
complete -c relay -n "__fish_relay_using_subcommand token; and not __fish_seen_subcommand_from create list narrow revoke help" -l sign-with -d 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)' -r -F
complete -c relay -n "__fish_relay_using_subcommand token; and not __fish_seen_subcommand_from create list narrow revoke help" -l store -d 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here' -r -F
complete -c relay -n "__fish_relay_using_subcommand token; and not __fish_seen_subcommand_from create list narrow revoke help" -l project -d 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml' -r
complete -c relay -n "__fish_relay_using_subcommand token; and not __fish_seen_subcommand_from create list narrow revoke help" -l color -d 'When to color human output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c relay -n "__fish_relay_using_subcommand token; and not __fish_seen_subcommand_from create list narrow revoke help" -l redact-secrets -d 'For this command, store credentials found in the input as <REDACTED:rule-id>'
complete -c relay -n "__fish_relay_using_subcommand token; and not __fish_seen_subcommand_from create list narrow revoke help" -l allow-secrets -d 'For this command, store credentials found in the input as they are'
complete -c relay -n "__fish_relay_using_subcommand token; and not __fish_seen_subcommand_from create list narrow revoke help" -l sign -d 'Sign this command\'s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
complete -c relay -n "__fish_relay_using_subcommand token; and not __fish_seen_subcommand_from create list narrow revoke help" -l json -d 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
complete -c relay -n "__fish_relay_using_subcommand token; and not __fish_seen_subcommand_from create list narrow revoke help" -s q -l quiet -d 'Print only results: no notes or warnings on stderr'
complete -c relay -n "__fish_relay_using_subcommand token; and not __fish_seen_subcommand_from create list narrow revoke help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c relay -n "__fish_relay_using_subcommand token; and not __fish_seen_subcommand_from create list narrow revoke help" -s V -l version -d 'Print version'
complete -c relay -n "__fish_relay_using_subcommand token; and not __fish_seen_subcommand_from create list narrow revoke help" -f -a "create" -d 'Make a token and print it (once: only its hash is kept)'
complete -c relay -n "__fish_relay_using_subcommand token; and not __fish_seen_subcommand_from create list narrow revoke help" -f -a "list" -d 'Every token, revoked ones too (no secrets: ids, actors, scopes, times)'
complete -c relay -n "__fish_relay_using_subcommand token; and not __fish_seen_subcommand_from create list narrow revoke help" -f -a "narrow" -d 'Narrow a token: keep only some of its projects, or make it read-only'
complete -c relay -n "__fish_relay_using_subcommand token; and not __fish_seen_subcommand_from create list narrow revoke help" -f -a "revoke" -d 'Revoke a token: requests with it are refused from now on, its open streams end'
complete -c relay -n "__fish_relay_using_subcommand token; and not __fish_seen_subcommand_from create list narrow revoke help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c relay -n "__fish_relay_using_subcommand token; and __fish_seen_subcommand_from create" -l actor -d 'The actor the token acts as' -r
complete -c relay -n "__fish_relay_using_subcommand token; and __fish_seen_subcommand_from create" -l actor-type -d 'What kind of actor' -r -f -a "human\t''
agent\t''
script\t''"
complete -c relay -n "__fish_relay_using_subcommand token; and __fish_seen_subcommand_from create" -l scope -d 'Limit the token to this project too (repeatable, or comma-separated)' -r
complete -c relay -n "__fish_relay_using_subcommand token; and __fish_seen_subcommand_from create" -l sign-with -d 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)' -r -F
complete -c relay -n "__fish_relay_using_subcommand token; and __fish_seen_subcommand_from create" -l store -d 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here' -r -F
complete -c relay -n "__fish_relay_using_subcommand token; and __fish_seen_subcommand_from create" -l project -d 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml' -r
complete -c relay -n "__fish_relay_using_subcommand token; and __fish_seen_subcommand_from create" -l color -d 'When to color human output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c relay -n "__fish_relay_using_subcommand token; and __fish_seen_subcommand_from create" -l read-only -d 'The token may read, never write'
complete -c relay -n "__fish_relay_using_subcommand token; and __fish_seen_subcommand_from create" -l redact-secrets -d 'For this command, store credentials found in the input as <REDACTED:rule-id>'
complete -c relay -n "__fish_relay_using_subcommand token; and __fish_seen_subcommand_from create" -l allow-secrets -d 'For this command, store credentials found in the input as they are'
complete -c relay -n "__fish_relay_using_subcommand token; and __fish_seen_subcommand_from create" -l sign -d 'Sign this command\'s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
complete -c relay -n "__fish_relay_using_subcommand token; and __fish_seen_subcommand_from create" -l json -d 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
complete -c relay -n "__fish_relay_using_subcommand token; and __fish_seen_subcommand_from create" -s q -l quiet -d 'Print only results: no notes or warnings on stderr'
complete -c relay -n "__fish_relay_using_subcommand token; and __fish_seen_subcommand_from create" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c relay -n "__fish_relay_using_subcommand token; and __fish_seen_subcommand_from create" -s V -l version -d 'Print version'
complete -c relay -n "__fish_relay_using_subcommand token; and __fish_seen_subcommand_from list" -l sign-with -d 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)' -r -F
complete -c relay -n "__fish_relay_using_subcommand token; and __fish_seen_subcommand_from list" -l store -d 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here' -r -F
complete -c relay -n "__fish_relay_using_subcommand token; and __fish_seen_subcommand_from list" -l project -d 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml' -r
complete -c relay -n "__fish_relay_using_subcommand token; and __fish_seen_subcommand_from list" -l color -d 'When to color human output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c relay -n "__fish_relay_using_subcommand token; and __fish_seen_subcommand_from list" -l redact-secrets -d 'For this command, store credentials found in the input as <REDACTED:rule-id>'
complete -c relay -n "__fish_relay_using_subcommand token; and __fish_seen_subcommand_from list" -l allow-secrets -d 'For this command, store credentials found in the input as they are'
complete -c relay -n "__fish_relay_using_subcommand token; and __fish_seen_subcommand_from list" -l sign -d 'Sign this command\'s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
complete -c relay -n "__fish_relay_using_subcommand token; and __fish_seen_subcommand_from list" -l json -d 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
complete -c relay -n "__fish_relay_using_subcommand token; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Print only results: no notes or warnings on stderr'
complete -c relay -n "__fish_relay_using_subcommand token; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c relay -n "__fish_relay_using_subcommand token; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c relay -n "__fish_relay_using_subcommand token; and __fish_seen_subcommand_from narrow" -l scope -d 'A project the token keeps (repeatable, or comma-separated); the others are dropped' -r
complete -c relay -n "__fish_relay_using_subcommand token; and __fish_seen_subcommand_from narrow" -l sign-with -d 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)' -r -F
complete -c relay -n "__fish_relay_using_subcommand token; and __fish_seen_subcommand_from narrow" -l store -d 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here' -r -F
complete -c relay -n "__fish_relay_using_subcommand token; and __fish_seen_subcommand_from narrow" -l project -d 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml' -r
complete -c relay -n "__fish_relay_using_subcommand token; and __fish_seen_subcommand_from narrow" -l color -d 'When to color human output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c relay -n "__fish_relay_using_subcommand token; and __fish_seen_subcommand_from narrow" -l read-only -d 'The token may read from now on, never write'
complete -c relay -n "__fish_relay_using_subcommand token; and __fish_seen_subcommand_from narrow" -l redact-secrets -d 'For this command, store credentials found in the input as <REDACTED:rule-id>'
complete -c relay -n "__fish_relay_using_subcommand token; and __fish_seen_subcommand_from narrow" -l allow-secrets -d 'For this command, store credentials found in the input as they are'
complete -c relay -n "__fish_relay_using_subcommand token; and __fish_seen_subcommand_from narrow" -l sign -d 'Sign this command\'s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
complete -c relay -n "__fish_relay_using_subcommand token; and __fish_seen_subcommand_from narrow" -l json -d 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
complete -c relay -n "__fish_relay_using_subcommand token; and __fish_seen_subcommand_from narrow" -s q -l quiet -d 'Print only results: no notes or warnings on stderr'
complete -c relay -n "__fish_relay_using_subcommand token; and __fish_seen_subcommand_from narrow" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c relay -n "__fish_relay_using_subcommand token; and __fish_seen_subcommand_from narrow" -s V -l version -d 'Print version'
complete -c relay -n "__fish_relay_using_subcommand token; and __fish_seen_subcommand_from revoke" -l sign-with -d 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)' -r -F
complete -c relay -n "__fish_relay_using_subcommand token; and __fish_seen_subcommand_from revoke" -l store -d 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here' -r -F
complete -c relay -n "__fish_relay_using_subcommand token; and __fish_seen_subcommand_from revoke" -l project -d 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml' -r
complete -c relay -n "__fish_relay_using_subcommand token; and __fish_seen_subcommand_from revoke" -l color -d 'When to color human output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c relay -n "__fish_relay_using_subcommand token; and __fish_seen_subcommand_from revoke" -l redact-secrets -d 'For this command, store credentials found in the input as <REDACTED:rule-id>'
complete -c relay -n "__fish_relay_using_subcommand token; and __fish_seen_subcommand_from revoke" -l allow-secrets -d 'For this command, store credentials found in the input as they are'
complete -c relay -n "__fish_relay_using_subcommand token; and __fish_seen_subcommand_from revoke" -l sign -d 'Sign this command\'s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
complete -c relay -n "__fish_relay_using_subcommand token; and __fish_seen_subcommand_from revoke" -l json -d 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
complete -c relay -n "__fish_relay_using_subcommand token; and __fish_seen_subcommand_from revoke" -s q -l quiet -d 'Print only results: no notes or warnings on stderr'
complete -c relay -n "__fish_relay_using_subcommand token; and __fish_seen_subcommand_from revoke" -s h -l help -d 'Print help'
complete -c relay -n "__fish_relay_using_subcommand token; and __fish_seen_subcommand_from revoke" -s V -l version -d 'Print version'
complete -c relay -n "__fish_relay_using_subcommand token; and __fish_seen_subcommand_from help" -f -a "create" -d 'Make a token and print it (once: only its hash is kept)'
complete -c relay -n "__fish_relay_using_subcommand token; and __fish_seen_subcommand_from help" -f -a "list" -d 'Every token, revoked ones too (no secrets: ids, actors, scopes, times)'
complete -c relay -n "__fish_relay_using_subcommand token; and __fish_seen_subcommand_from help" -f -a "narrow" -d 'Narrow a token: keep only some of its projects, or make it read-only'
complete -c relay -n "__fish_relay_using_subcommand token; and __fish_seen_subcommand_from help" -f -a "revoke" -d 'Revoke a token: requests with it are refused from now on, its open streams end'
complete -c relay -n "__fish_relay_using_subcommand token; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c relay -n "__fish_relay_using_subcommand ui" -l port -d 'The port on 127.0.0.1 (0: any free port)' -r
complete -c relay -n "__fish_relay_using_subcommand ui" -l model -d 'The embedding model for search by meaning (see `relay search --help`)' -r -F
complete -c relay -n "__fish_relay_using_subcommand ui" -l actor -d 'Who is acting; default: [actor] id in config, then git user.email, then $USER' -r
complete -c relay -n "__fish_relay_using_subcommand ui" -l actor-type -d 'What kind of actor' -r -f -a "human\t''
agent\t''
script\t''"
complete -c relay -n "__fish_relay_using_subcommand ui" -l session -d 'The session (id or callsign) to record; default: this clone\'s current session' -r
complete -c relay -n "__fish_relay_using_subcommand ui" -l sign-with -d 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)' -r -F
complete -c relay -n "__fish_relay_using_subcommand ui" -l store -d 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here' -r -F
complete -c relay -n "__fish_relay_using_subcommand ui" -l project -d 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml' -r
complete -c relay -n "__fish_relay_using_subcommand ui" -l color -d 'When to color human output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c relay -n "__fish_relay_using_subcommand ui" -l no-open -d 'Print the link, do not open a browser'
complete -c relay -n "__fish_relay_using_subcommand ui" -l redact-secrets -d 'For this command, store credentials found in the input as <REDACTED:rule-id>'
complete -c relay -n "__fish_relay_using_subcommand ui" -l allow-secrets -d 'For this command, store credentials found in the input as they are'
complete -c relay -n "__fish_relay_using_subcommand ui" -l sign -d 'Sign this command\'s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
complete -c relay -n "__fish_relay_using_subcommand ui" -l json -d 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
complete -c relay -n "__fish_relay_using_subcommand ui" -s q -l quiet -d 'Print only results: no notes or warnings on stderr'
complete -c relay -n "__fish_relay_using_subcommand ui" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c relay -n "__fish_relay_using_subcommand ui" -s V -l version -d 'Print version'
complete -c relay -n "__fish_relay_using_subcommand help; and not __fish_seen_subcommand_from init deposit pull projects facts session lesson checkpoint snippet search index orient orchestrate review retract purge status export import verify doctor resolve merge keys hook scan conformance completions onboard mcp watch serve token ui help" -f -a "init" -d 'Create a relay store (.relay/) in this folder, with a first project'
complete -c relay -n "__fish_relay_using_subcommand help; and not __fish_seen_subcommand_from init deposit pull projects facts session lesson checkpoint snippet search index orient orchestrate review retract purge status export import verify doctor resolve merge keys hook scan conformance completions onboard mcp watch serve token ui help" -f -a "deposit" -d 'Record a context package: what you did, decided, left open, and who should pick it up'
complete -c relay -n "__fish_relay_using_subcommand help; and not __fish_seen_subcommand_from init deposit pull projects facts session lesson checkpoint snippet search index orient orchestrate review retract purge status export import verify doctor resolve merge keys hook scan conformance completions onboard mcp watch serve token ui help" -f -a "pull" -d 'Read packages: one in full by id, the newest ones, or the most relevant to a query'
complete -c relay -n "__fish_relay_using_subcommand help; and not __fish_seen_subcommand_from init deposit pull projects facts session lesson checkpoint snippet search index orient orchestrate review retract purge status export import verify doctor resolve merge keys hook scan conformance completions onboard mcp watch serve token ui help" -f -a "projects" -d 'Manage the store\'s projects'
complete -c relay -n "__fish_relay_using_subcommand help; and not __fish_seen_subcommand_from init deposit pull projects facts session lesson checkpoint snippet search index orient orchestrate review retract purge status export import verify doctor resolve merge keys hook scan conformance completions onboard mcp watch serve token ui help" -f -a "facts" -d 'Track what is true now, and what was true then'
complete -c relay -n "__fish_relay_using_subcommand help; and not __fish_seen_subcommand_from init deposit pull projects facts session lesson checkpoint snippet search index orient orchestrate review retract purge status export import verify doctor resolve merge keys hook scan conformance completions onboard mcp watch serve token ui help" -f -a "session" -d 'Group work into sessions with memorable callsigns (e.g. coral-heron)'
complete -c relay -n "__fish_relay_using_subcommand help; and not __fish_seen_subcommand_from init deposit pull projects facts session lesson checkpoint snippet search index orient orchestrate review retract purge status export import verify doctor resolve merge keys hook scan conformance completions onboard mcp watch serve token ui help" -f -a "lesson" -d 'Record lessons learned once and needed forever, and list them'
complete -c relay -n "__fish_relay_using_subcommand help; and not __fish_seen_subcommand_from init deposit pull projects facts session lesson checkpoint snippet search index orient orchestrate review retract purge status export import verify doctor resolve merge keys hook scan conformance completions onboard mcp watch serve token ui help" -f -a "checkpoint" -d 'Record where you stand (working on, decisions, blockers), or show each agent\'s latest'
complete -c relay -n "__fish_relay_using_subcommand help; and not __fish_seen_subcommand_from init deposit pull projects facts session lesson checkpoint snippet search index orient orchestrate review retract purge status export import verify doctor resolve merge keys hook scan conformance completions onboard mcp watch serve token ui help" -f -a "snippet" -d 'Keep a piece of code or text as a snippet, with its path, lines and git blob id'
complete -c relay -n "__fish_relay_using_subcommand help; and not __fish_seen_subcommand_from init deposit pull projects facts session lesson checkpoint snippet search index orient orchestrate review retract purge status export import verify doctor resolve merge keys hook scan conformance completions onboard mcp watch serve token ui help" -f -a "search" -d 'Find the packages most relevant to a query'
complete -c relay -n "__fish_relay_using_subcommand help; and not __fish_seen_subcommand_from init deposit pull projects facts session lesson checkpoint snippet search index orient orchestrate review retract purge status export import verify doctor resolve merge keys hook scan conformance completions onboard mcp watch serve token ui help" -f -a "index" -d 'Build the search indexes and the vectors of search by meaning now'
complete -c relay -n "__fish_relay_using_subcommand help; and not __fish_seen_subcommand_from init deposit pull projects facts session lesson checkpoint snippet search index orient orchestrate review retract purge status export import verify doctor resolve merge keys hook scan conformance completions onboard mcp watch serve token ui help" -f -a "orient" -d 'Brief a new session: latest handoff, recent work, open questions, active facts'
complete -c relay -n "__fish_relay_using_subcommand help; and not __fish_seen_subcommand_from init deposit pull projects facts session lesson checkpoint snippet search index orient orchestrate review retract purge status export import verify doctor resolve merge keys hook scan conformance completions onboard mcp watch serve token ui help" -f -a "orchestrate" -d 'Assemble a digest of recent work for an agent to synthesise (relay runs no LLM)'
complete -c relay -n "__fish_relay_using_subcommand help; and not __fish_seen_subcommand_from init deposit pull projects facts session lesson checkpoint snippet search index orient orchestrate review retract purge status export import verify doctor resolve merge keys hook scan conformance completions onboard mcp watch serve token ui help" -f -a "review" -d 'Put packages through review: flag, approve, request changes, list'
complete -c relay -n "__fish_relay_using_subcommand help; and not __fish_seen_subcommand_from init deposit pull projects facts session lesson checkpoint snippet search index orient orchestrate review retract purge status export import verify doctor resolve merge keys hook scan conformance completions onboard mcp watch serve token ui help" -f -a "retract" -d 'Take back a package or a fact: reads stop showing it, its history keeps it'
complete -c relay -n "__fish_relay_using_subcommand help; and not __fish_seen_subcommand_from init deposit pull projects facts session lesson checkpoint snippet search index orient orchestrate review retract purge status export import verify doctor resolve merge keys hook scan conformance completions onboard mcp watch serve token ui help" -f -a "purge" -d 'Remove expired or retracted records from the logs (the one command that rewrites them)'
complete -c relay -n "__fish_relay_using_subcommand help; and not __fish_seen_subcommand_from init deposit pull projects facts session lesson checkpoint snippet search index orient orchestrate review retract purge status export import verify doctor resolve merge keys hook scan conformance completions onboard mcp watch serve token ui help" -f -a "status" -d 'Summarise the store: projects, package counts, reviews, facts, sessions, size, warnings'
complete -c relay -n "__fish_relay_using_subcommand help; and not __fish_seen_subcommand_from init deposit pull projects facts session lesson checkpoint snippet search index orient orchestrate review retract purge status export import verify doctor resolve merge keys hook scan conformance completions onboard mcp watch serve token ui help" -f -a "export" -d 'Back up projects as plain wire records (offline, restorable anywhere)'
complete -c relay -n "__fish_relay_using_subcommand help; and not __fish_seen_subcommand_from init deposit pull projects facts session lesson checkpoint snippet search index orient orchestrate review retract purge status export import verify doctor resolve merge keys hook scan conformance completions onboard mcp watch serve token ui help" -f -a "import" -d 'Restore records: a backup folder, an NDJSON stream, or another store\'s .relay/ folder'
complete -c relay -n "__fish_relay_using_subcommand help; and not __fish_seen_subcommand_from init deposit pull projects facts session lesson checkpoint snippet search index orient orchestrate review retract purge status export import verify doctor resolve merge keys hook scan conformance completions onboard mcp watch serve token ui help" -f -a "verify" -d 'Check every line of the store; with --fix, repair what is safe'
complete -c relay -n "__fish_relay_using_subcommand help; and not __fish_seen_subcommand_from init deposit pull projects facts session lesson checkpoint snippet search index orient orchestrate review retract purge status export import verify doctor resolve merge keys hook scan conformance completions onboard mcp watch serve token ui help" -f -a "doctor" -d 'Check the whole setup end to end, and say how to fix what is wrong'
complete -c relay -n "__fish_relay_using_subcommand help; and not __fish_seen_subcommand_from init deposit pull projects facts session lesson checkpoint snippet search index orient orchestrate review retract purge status export import verify doctor resolve merge keys hook scan conformance completions onboard mcp watch serve token ui help" -f -a "resolve" -d 'Finish a git merge that left store files unmerged (an octopus merge)'
complete -c relay -n "__fish_relay_using_subcommand help; and not __fish_seen_subcommand_from init deposit pull projects facts session lesson checkpoint snippet search index orient orchestrate review retract purge status export import verify doctor resolve merge keys hook scan conformance completions onboard mcp watch serve token ui help" -f -a "merge" -d 'Merge several branches at once, keeping every side\'s store records'
complete -c relay -n "__fish_relay_using_subcommand help; and not __fish_seen_subcommand_from init deposit pull projects facts session lesson checkpoint snippet search index orient orchestrate review retract purge status export import verify doctor resolve merge keys hook scan conformance completions onboard mcp watch serve token ui help" -f -a "keys" -d 'Make signing keys and list who may sign (.relay/allowed_signers)'
complete -c relay -n "__fish_relay_using_subcommand help; and not __fish_seen_subcommand_from init deposit pull projects facts session lesson checkpoint snippet search index orient orchestrate review retract purge status export import verify doctor resolve merge keys hook scan conformance completions onboard mcp watch serve token ui help" -f -a "hook" -d 'Hook relay into git and coding agents (Claude Code, Codex, Gemini CLI, Cursor, OpenCode)'
complete -c relay -n "__fish_relay_using_subcommand help; and not __fish_seen_subcommand_from init deposit pull projects facts session lesson checkpoint snippet search index orient orchestrate review retract purge status export import verify doctor resolve merge keys hook scan conformance completions onboard mcp watch serve token ui help" -f -a "scan" -d 'Look for credentials in the store: every line, every version'
complete -c relay -n "__fish_relay_using_subcommand help; and not __fish_seen_subcommand_from init deposit pull projects facts session lesson checkpoint snippet search index orient orchestrate review retract purge status export import verify doctor resolve merge keys hook scan conformance completions onboard mcp watch serve token ui help" -f -a "conformance" -d 'Print the conformance descriptor (§11.5), or check a server\'s conformance (--check URL)'
complete -c relay -n "__fish_relay_using_subcommand help; and not __fish_seen_subcommand_from init deposit pull projects facts session lesson checkpoint snippet search index orient orchestrate review retract purge status export import verify doctor resolve merge keys hook scan conformance completions onboard mcp watch serve token ui help" -f -a "completions" -d 'Print a shell completion script'
complete -c relay -n "__fish_relay_using_subcommand help; and not __fish_seen_subcommand_from init deposit pull projects facts session lesson checkpoint snippet search index orient orchestrate review retract purge status export import verify doctor resolve merge keys hook scan conformance completions onboard mcp watch serve token ui help" -f -a "onboard" -d 'Print the block that teaches coding agents to use relay (for AGENTS.md, CLAUDE.md)'
complete -c relay -n "__fish_relay_using_subcommand help; and not __fish_seen_subcommand_from init deposit pull projects facts session lesson checkpoint snippet search index orient orchestrate review retract purge status export import verify doctor resolve merge keys hook scan conformance completions onboard mcp watch serve token ui help" -f -a "mcp" -d 'Serve relay to AI agents over the Model Context Protocol (MCP), on stdin and stdout'
complete -c relay -n "__fish_relay_using_subcommand help; and not __fish_seen_subcommand_from init deposit pull projects facts session lesson checkpoint snippet search index orient orchestrate review retract purge status export import verify doctor resolve merge keys hook scan conformance completions onboard mcp watch serve token ui help" -f -a "watch" -d 'Print records as they are appended to the store, until interrupted'
complete -c relay -n "__fish_relay_using_subcommand help; and not __fish_seen_subcommand_from init deposit pull projects facts session lesson checkpoint snippet search index orient orchestrate review retract purge status export import verify doctor resolve merge keys hook scan conformance completions onboard mcp watch serve token ui help" -f -a "serve" -d 'Serve the store over HTTP: the Agentic Protocol\'s HTTP mapping (§9.1), with bearer tokens'
complete -c relay -n "__fish_relay_using_subcommand help; and not __fish_seen_subcommand_from init deposit pull projects facts session lesson checkpoint snippet search index orient orchestrate review retract purge status export import verify doctor resolve merge keys hook scan conformance completions onboard mcp watch serve token ui help" -f -a "token" -d 'Make, list, narrow and revoke the bearer tokens of `relay serve`'
complete -c relay -n "__fish_relay_using_subcommand help; and not __fish_seen_subcommand_from init deposit pull projects facts session lesson checkpoint snippet search index orient orchestrate review retract purge status export import verify doctor resolve merge keys hook scan conformance completions onboard mcp watch serve token ui help" -f -a "ui" -d 'Open the web console: timeline, search, facts, the review queue and orient, in a browser'
complete -c relay -n "__fish_relay_using_subcommand help; and not __fish_seen_subcommand_from init deposit pull projects facts session lesson checkpoint snippet search index orient orchestrate review retract purge status export import verify doctor resolve merge keys hook scan conformance completions onboard mcp watch serve token ui help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c relay -n "__fish_relay_using_subcommand help; and __fish_seen_subcommand_from projects" -f -a "list" -d 'List every project (NDJSON of project records with --json)'
complete -c relay -n "__fish_relay_using_subcommand help; and __fish_seen_subcommand_from projects" -f -a "create" -d 'Create a project'
complete -c relay -n "__fish_relay_using_subcommand help; and __fish_seen_subcommand_from projects" -f -a "info" -d 'Show one project and how many packages it holds'
complete -c relay -n "__fish_relay_using_subcommand help; and __fish_seen_subcommand_from projects" -f -a "rename" -d 'Give a project a new display name (its id never changes)'
complete -c relay -n "__fish_relay_using_subcommand help; and __fish_seen_subcommand_from projects" -f -a "archive" -d 'Archive a project: it stays readable, but refuses deposits'
complete -c relay -n "__fish_relay_using_subcommand help; and __fish_seen_subcommand_from projects" -f -a "unarchive" -d 'Undo an archive'
complete -c relay -n "__fish_relay_using_subcommand help; and __fish_seen_subcommand_from facts" -f -a "assert" -d 'Record a value, superseding the current one (a no-op only if the value, confidence, source, tags and start are all already current)'
complete -c relay -n "__fish_relay_using_subcommand help; and __fish_seen_subcommand_from facts" -f -a "invalidate" -d 'End the current fact(s) of a key without a replacement; prints how many ended'
complete -c relay -n "__fish_relay_using_subcommand help; and __fish_seen_subcommand_from facts" -f -a "get" -d 'The current value of a key, or the one valid at --at (exit 1 if none)'
complete -c relay -n "__fish_relay_using_subcommand help; and __fish_seen_subcommand_from facts" -f -a "list" -d 'Current facts (one per subject and predicate), filtered'
complete -c relay -n "__fish_relay_using_subcommand help; and __fish_seen_subcommand_from facts" -f -a "history" -d 'Every value a key has had, oldest first'
complete -c relay -n "__fish_relay_using_subcommand help; and __fish_seen_subcommand_from session" -f -a "start" -d 'Start a session and make it current'
complete -c relay -n "__fish_relay_using_subcommand help; and __fish_seen_subcommand_from session" -f -a "end" -d 'End a session (default: the current one) and record its packages'
complete -c relay -n "__fish_relay_using_subcommand help; and __fish_seen_subcommand_from session" -f -a "status" -d 'The current session: RELAY_SESSION, else this clone\'s'
complete -c relay -n "__fish_relay_using_subcommand help; and __fish_seen_subcommand_from session" -f -a "list" -d 'Sessions of the project, oldest first'
complete -c relay -n "__fish_relay_using_subcommand help; and __fish_seen_subcommand_from session" -f -a "show" -d 'A session with the packages deposited in it, their decisions and open questions'
complete -c relay -n "__fish_relay_using_subcommand help; and __fish_seen_subcommand_from lesson" -f -a "add" -d 'Record a lesson; prints its id and hash like `relay deposit`'
complete -c relay -n "__fish_relay_using_subcommand help; and __fish_seen_subcommand_from lesson" -f -a "list" -d 'The project\'s lessons, most severe first, then newest'
complete -c relay -n "__fish_relay_using_subcommand help; and __fish_seen_subcommand_from checkpoint" -f -a "show" -d 'Each actor\'s latest checkpoint in the project (or ACTOR\'s), newest first'
complete -c relay -n "__fish_relay_using_subcommand help; and __fish_seen_subcommand_from snippet" -f -a "add" -d 'Store lines START..=END of FILE (1-based; the whole file without a range)'
complete -c relay -n "__fish_relay_using_subcommand help; and __fish_seen_subcommand_from review" -f -a "flag" -d 'Ask for review: the package becomes awaiting_review (from draft, awaiting_review or revision_requested)'
complete -c relay -n "__fish_relay_using_subcommand help; and __fish_seen_subcommand_from review" -f -a "approve" -d 'Approve: the package becomes complete (from any status but complete)'
complete -c relay -n "__fish_relay_using_subcommand help; and __fish_seen_subcommand_from review" -f -a "request-changes" -d 'Send it back: awaiting_review becomes revision_requested'
complete -c relay -n "__fish_relay_using_subcommand help; and __fish_seen_subcommand_from review" -f -a "list" -d 'Packages awaiting review, oldest request first, with who flagged them and why'
complete -c relay -n "__fish_relay_using_subcommand help; and __fish_seen_subcommand_from keys" -f -a "generate" -d 'Make an Ed25519 key (mode 0600, and KEY.pub) and print its allowed_signers line'
complete -c relay -n "__fish_relay_using_subcommand help; and __fish_seen_subcommand_from keys" -f -a "add" -d 'Allow a key you already have: append its allowed_signers line for you'
complete -c relay -n "__fish_relay_using_subcommand help; and __fish_seen_subcommand_from keys" -f -a "rotate" -d 'Move to a new signing key: a key rotation record signed with the current key, and the new key\'s line in .relay/allowed_signers'
complete -c relay -n "__fish_relay_using_subcommand help; and __fish_seen_subcommand_from keys" -f -a "list" -d 'The entries of .relay/allowed_signers: principals, key type, fingerprint, options'
complete -c relay -n "__fish_relay_using_subcommand help; and __fish_seen_subcommand_from hook" -f -a "install" -d 'Install hooks (installing twice changes nothing)'
complete -c relay -n "__fish_relay_using_subcommand help; and __fish_seen_subcommand_from hook" -f -a "uninstall" -d 'Remove relay\'s hooks and restore what was there before'
complete -c relay -n "__fish_relay_using_subcommand help; and __fish_seen_subcommand_from hook" -f -a "flush" -d 'Move what relay\'s hooks queued into the store\'s logs (the pre-commit hook runs it)'
complete -c relay -n "__fish_relay_using_subcommand help; and __fish_seen_subcommand_from hook" -f -a "reconcile" -d 'Put back into the queue what a git move took from the store (post-merge and post-rewrite run it)'
complete -c relay -n "__fish_relay_using_subcommand help; and __fish_seen_subcommand_from hook" -f -a "merge-driver" -d 'Merge two versions of a store log (git runs it: `merge.relay.driver`)'
complete -c relay -n "__fish_relay_using_subcommand help; and __fish_seen_subcommand_from hook" -f -a "run" -d 'Handle one agent event (what the installed agent hooks run)'
complete -c relay -n "__fish_relay_using_subcommand help; and __fish_seen_subcommand_from token" -f -a "create" -d 'Make a token and print it (once: only its hash is kept)'
complete -c relay -n "__fish_relay_using_subcommand help; and __fish_seen_subcommand_from token" -f -a "list" -d 'Every token, revoked ones too (no secrets: ids, actors, scopes, times)'
complete -c relay -n "__fish_relay_using_subcommand help; and __fish_seen_subcommand_from token" -f -a "narrow" -d 'Narrow a token: keep only some of its projects, or make it read-only'
complete -c relay -n "__fish_relay_using_subcommand help; and __fish_seen_subcommand_from token" -f -a "revoke" -d 'Revoke a token: requests with it are refused from now on, its open streams end'
