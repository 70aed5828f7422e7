
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'relay' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'relay'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'relay' {
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color human output')
            [CompletionResult]::new('--sign-with', '--sign-with', [CompletionResultType]::ParameterName, 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON object per line; errors as JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('--redact-secrets', '--redact-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as <REDACTED:rule-id>')
            [CompletionResult]::new('--allow-secrets', '--allow-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as they are')
            [CompletionResult]::new('--sign', '--sign', [CompletionResultType]::ParameterName, 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('init', 'init', [CompletionResultType]::ParameterValue, 'Create a relay store (.relay/) in this folder, with a first project')
            [CompletionResult]::new('deposit', 'deposit', [CompletionResultType]::ParameterValue, 'Record a context package: what you did, decided, left open, and who should pick it up')
            [CompletionResult]::new('pull', 'pull', [CompletionResultType]::ParameterValue, 'Read packages: one in full by id, the newest ones, or the most relevant to a query')
            [CompletionResult]::new('projects', 'projects', [CompletionResultType]::ParameterValue, 'Manage the store''s projects')
            [CompletionResult]::new('facts', 'facts', [CompletionResultType]::ParameterValue, 'Track what is true now, and what was true then')
            [CompletionResult]::new('session', 'session', [CompletionResultType]::ParameterValue, 'Group work into sessions with memorable callsigns (e.g. coral-heron)')
            [CompletionResult]::new('lesson', 'lesson', [CompletionResultType]::ParameterValue, 'Record lessons learned once and needed forever, and list them')
            [CompletionResult]::new('checkpoint', 'checkpoint', [CompletionResultType]::ParameterValue, 'Record where you stand (working on, decisions, blockers), or show each agent''s latest')
            [CompletionResult]::new('snippet', 'snippet', [CompletionResultType]::ParameterValue, 'Keep a piece of code or text as a snippet, with its path, lines and git blob id')
            [CompletionResult]::new('search', 'search', [CompletionResultType]::ParameterValue, 'Find the packages most relevant to a query')
            [CompletionResult]::new('index', 'index', [CompletionResultType]::ParameterValue, 'Build the search indexes and the vectors of search by meaning now')
            [CompletionResult]::new('orient', 'orient', [CompletionResultType]::ParameterValue, 'Brief a new session: latest handoff, recent work, open questions, active facts')
            [CompletionResult]::new('orchestrate', 'orchestrate', [CompletionResultType]::ParameterValue, 'Assemble a digest of recent work for an agent to synthesise (relay runs no LLM)')
            [CompletionResult]::new('review', 'review', [CompletionResultType]::ParameterValue, 'Put packages through review: flag, approve, request changes, list')
            [CompletionResult]::new('retract', 'retract', [CompletionResultType]::ParameterValue, 'Take back a package or a fact: reads stop showing it, its history keeps it')
            [CompletionResult]::new('purge', 'purge', [CompletionResultType]::ParameterValue, 'Remove expired or retracted records from the logs (the one command that rewrites them)')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Summarise the store: projects, package counts, reviews, facts, sessions, size, warnings')
            [CompletionResult]::new('export', 'export', [CompletionResultType]::ParameterValue, 'Back up projects as plain wire records (offline, restorable anywhere)')
            [CompletionResult]::new('import', 'import', [CompletionResultType]::ParameterValue, 'Restore records: a backup folder, an NDJSON stream, or another store''s .relay/ folder')
            [CompletionResult]::new('verify', 'verify', [CompletionResultType]::ParameterValue, 'Check every line of the store; with --fix, repair what is safe')
            [CompletionResult]::new('doctor', 'doctor', [CompletionResultType]::ParameterValue, 'Check the whole setup end to end, and say how to fix what is wrong')
            [CompletionResult]::new('resolve', 'resolve', [CompletionResultType]::ParameterValue, 'Finish a git merge that left store files unmerged (an octopus merge)')
            [CompletionResult]::new('merge', 'merge', [CompletionResultType]::ParameterValue, 'Merge several branches at once, keeping every side''s store records')
            [CompletionResult]::new('keys', 'keys', [CompletionResultType]::ParameterValue, 'Make signing keys and list who may sign (.relay/allowed_signers)')
            [CompletionResult]::new('hook', 'hook', [CompletionResultType]::ParameterValue, 'Hook relay into git and coding agents (Claude Code, Codex, Gemini CLI, Cursor, OpenCode)')
            [CompletionResult]::new('scan', 'scan', [CompletionResultType]::ParameterValue, 'Look for credentials in the store: every line, every version')
            [CompletionResult]::new('conformance', 'conformance', [CompletionResultType]::ParameterValue, 'Print the conformance descriptor (§11.5), or check a server''s conformance (--check URL)')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('onboard', 'onboard', [CompletionResultType]::ParameterValue, 'Print the block that teaches coding agents to use relay (for AGENTS.md, CLAUDE.md)')
            [CompletionResult]::new('mcp', 'mcp', [CompletionResultType]::ParameterValue, 'Serve relay to AI agents over the Model Context Protocol (MCP), on stdin and stdout')
            [CompletionResult]::new('watch', 'watch', [CompletionResultType]::ParameterValue, 'Print records as they are appended to the store, until interrupted')
            [CompletionResult]::new('serve', 'serve', [CompletionResultType]::ParameterValue, 'Serve the store over HTTP: the Agentic Protocol''s HTTP mapping (§9.1), with bearer tokens')
            [CompletionResult]::new('token', 'token', [CompletionResultType]::ParameterValue, 'Make, list, narrow and revoke the bearer tokens of `relay serve`')
            [CompletionResult]::new('ui', 'ui', [CompletionResultType]::ParameterValue, 'Open the web console: timeline, search, facts, the review queue and orient, in a browser')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'relay;init' {
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'A display name for the project')
            [CompletionResult]::new('--sign-with', '--sign-with', [CompletionResultType]::ParameterName, 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color human output')
            [CompletionResult]::new('--local', '--local', [CompletionResultType]::ParameterName, 'Make a private store that git never sees (listed in .git/info/exclude, not committed)')
            [CompletionResult]::new('--redact-secrets', '--redact-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as <REDACTED:rule-id>')
            [CompletionResult]::new('--allow-secrets', '--allow-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as they are')
            [CompletionResult]::new('--sign', '--sign', [CompletionResultType]::ParameterName, 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON object per line; errors as JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'relay;deposit' {
            [CompletionResult]::new('--title', '--title', [CompletionResultType]::ParameterName, 'One-line summary (1–200 characters)')
            [CompletionResult]::new('--description', '--description', [CompletionResultType]::ParameterName, 'Longer prose')
            [CompletionResult]::new('--type', '--type', [CompletionResultType]::ParameterName, 'Package type: standard, milestone, decision, handoff, auto_deposit, analysis, question, orchestrator_report, or an x-* extension')
            [CompletionResult]::new('--status', '--status', [CompletionResultType]::ParameterName, 'Lifecycle status (default: complete)')
            [CompletionResult]::new('--review', '--review', [CompletionResultType]::ParameterName, 'Who must review it (default: none)')
            [CompletionResult]::new('--tag', '--tag', [CompletionResultType]::ParameterName, 'A label (repeatable)')
            [CompletionResult]::new('--decision', '--decision', [CompletionResultType]::ParameterName, 'A decision made (repeatable)')
            [CompletionResult]::new('--question', '--question', [CompletionResultType]::ParameterName, 'An open question (repeatable)')
            [CompletionResult]::new('--handoff', '--handoff', [CompletionResultType]::ParameterName, 'Guidance for whoever picks this up next')
            [CompletionResult]::new('--next-actor', '--next-actor', [CompletionResultType]::ParameterName, 'Who should pick it up next')
            [CompletionResult]::new('--deliverable', '--deliverable', [CompletionResultType]::ParameterName, 'A file, folder or URL produced (repeatable); files get their sha256 and size recorded')
            [CompletionResult]::new('--parent', '--parent', [CompletionResultType]::ParameterName, 'The package this one corrects or extends')
            [CompletionResult]::new('--significance', '--significance', [CompletionResultType]::ParameterName, '1 (noise) to 10 (critical); default 5')
            [CompletionResult]::new('--topic', '--topic', [CompletionResultType]::ParameterName, 'Subject area, e.g. retrieval')
            [CompletionResult]::new('--artifact-type', '--artifact-type', [CompletionResultType]::ParameterName, 'A narrower type hint than --type')
            [CompletionResult]::new('--content-md', '--content-md', [CompletionResultType]::ParameterName, 'A Markdown body, read from FILE or - (stdin)')
            [CompletionResult]::new('--ext', '--ext', [CompletionResultType]::ParameterName, 'An x-* extension field (repeatable); VALUE is parsed as JSON when it parses, else a string')
            [CompletionResult]::new('--from', '--from', [CompletionResultType]::ParameterName, 'Read a whole or partial wire package (JSON) from FILE or - (stdin)')
            [CompletionResult]::new('--id', '--id', [CompletionResultType]::ParameterName, 'Use this package_id instead of a new one (makes retries idempotent)')
            [CompletionResult]::new('--expires-at', '--expires-at', [CompletionResultType]::ParameterName, 'Hide the record from reads from TIME on (RFC 3339 or a date; it must be in the future)')
            [CompletionResult]::new('--ttl', '--ttl', [CompletionResultType]::ParameterName, 'Hide the record from reads once this span has passed: 90m, 12h, 30d, 2w')
            [CompletionResult]::new('--actor', '--actor', [CompletionResultType]::ParameterName, 'Who is acting; default: [actor] id in config, then git user.email, then $USER')
            [CompletionResult]::new('--actor-type', '--actor-type', [CompletionResultType]::ParameterName, 'What kind of actor')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session (id or callsign) to record; default: this clone''s current session')
            [CompletionResult]::new('--sign-with', '--sign-with', [CompletionResultType]::ParameterName, 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color human output')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Take the package as the Agentic Protocol does (§8.1), as `relay serve` does: every required member given (package_id, project_id, relay_version, title, status, package_type, review_type, created_at, created_by), usually with --from; relay fills nothing in, and a package missing one is refused (invalid_schema)')
            [CompletionResult]::new('--auto', '--auto', [CompletionResultType]::ParameterName, 'For hooks: record the new commit, or else the uncommitted changes, or nothing if nothing is new. Never fails: problems go to stderr and the exit code is 0')
            [CompletionResult]::new('--queue', '--queue', [CompletionResultType]::ParameterName, 'With --auto, for git hooks: write into this clone''s queue (.relay/local/pending/, which git never sees) instead of the tracked logs; reads see it at once, and the pre-commit hook (`relay hook flush --stage`) moves it into the store with the next commit. A local store, or one outside git, is written directly')
            [CompletionResult]::new('--redact-secrets', '--redact-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as <REDACTED:rule-id>')
            [CompletionResult]::new('--allow-secrets', '--allow-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as they are')
            [CompletionResult]::new('--sign', '--sign', [CompletionResultType]::ParameterName, 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON object per line; errors as JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'relay;pull' {
            [CompletionResult]::new('--latest', '--latest', [CompletionResultType]::ParameterName, 'List the N newest packages')
            [CompletionResult]::new('--relevant', '--relevant', [CompletionResultType]::ParameterName, 'Rank packages by relevance to QUERY (words and "quoted phrases")')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'How many packages: the newest (as --latest N) or the best matches of --relevant')
            [CompletionResult]::new('--type', '--type', [CompletionResultType]::ParameterName, 'Only this package type (repeatable: any of them)')
            [CompletionResult]::new('--tag', '--tag', [CompletionResultType]::ParameterName, 'Only packages with this tag (repeatable: all of them)')
            [CompletionResult]::new('--created-by', '--created-by', [CompletionResultType]::ParameterName, 'Only packages created by this actor id (`created_by` on MCP and HTTP)')
            [CompletionResult]::new('--actor', '--actor', [CompletionResultType]::ParameterName, 'Only packages created by this actor id (`created_by` on MCP and HTTP)')
            [CompletionResult]::new('--status', '--status', [CompletionResultType]::ParameterName, 'Only packages in this status')
            [CompletionResult]::new('--since', '--since', [CompletionResultType]::ParameterName, 'Only packages created at or after TIME')
            [CompletionResult]::new('--until', '--until', [CompletionResultType]::ParameterName, 'Only packages created before TIME')
            [CompletionResult]::new('--as-of', '--as-of', [CompletionResultType]::ParameterName, 'Read the store as it stood at TIME: packages created by then, at the review version current then; retractions and expiry as of then')
            [CompletionResult]::new('--mode', '--mode', [CompletionResultType]::ParameterName, 'keyword (BM25 over the words), semantic (similarity of meaning, with an embedding model) or hybrid (both lists fused by rank). Default: hybrid when a model is configured, else keyword (`search` on MCP and HTTP)')
            [CompletionResult]::new('--search', '--search', [CompletionResultType]::ParameterName, 'keyword (BM25 over the words), semantic (similarity of meaning, with an embedding model) or hybrid (both lists fused by rank). Default: hybrid when a model is configured, else keyword (`search` on MCP and HTTP)')
            [CompletionResult]::new('--model', '--model', [CompletionResultType]::ParameterName, 'The embedding model''s folder (a Model2Vec static model: config.json, model.safetensors, tokenizer.json; with query/, the transformer that embeds queries, as scripts/fetch-model.sh makes it); else `[search] model` in .relay/config.toml')
            [CompletionResult]::new('--sign-with', '--sign-with', [CompletionResultType]::ParameterName, 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color human output')
            [CompletionResult]::new('--history', '--history', [CompletionResultType]::ParameterName, 'With PACKAGE_ID: every stored version, with its transition (who, when, note)')
            [CompletionResult]::new('--all-projects', '--all-projects', [CompletionResultType]::ParameterName, 'Cover every project, not just the selected one')
            [CompletionResult]::new('--include-expired', '--include-expired', [CompletionResultType]::ParameterName, 'Show packages whose x-expires-at has passed (hidden otherwise)')
            [CompletionResult]::new('--include-retracted', '--include-retracted', [CompletionResultType]::ParameterName, 'Show packages that `relay retract` has retracted (hidden otherwise)')
            [CompletionResult]::new('--redact-secrets', '--redact-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as <REDACTED:rule-id>')
            [CompletionResult]::new('--allow-secrets', '--allow-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as they are')
            [CompletionResult]::new('--sign', '--sign', [CompletionResultType]::ParameterName, 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON object per line; errors as JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'relay;projects' {
            [CompletionResult]::new('--sign-with', '--sign-with', [CompletionResultType]::ParameterName, 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color human output')
            [CompletionResult]::new('--redact-secrets', '--redact-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as <REDACTED:rule-id>')
            [CompletionResult]::new('--allow-secrets', '--allow-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as they are')
            [CompletionResult]::new('--sign', '--sign', [CompletionResultType]::ParameterName, 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON object per line; errors as JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List every project (NDJSON of project records with --json)')
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Create a project')
            [CompletionResult]::new('info', 'info', [CompletionResultType]::ParameterValue, 'Show one project and how many packages it holds')
            [CompletionResult]::new('rename', 'rename', [CompletionResultType]::ParameterValue, 'Give a project a new display name (its id never changes)')
            [CompletionResult]::new('archive', 'archive', [CompletionResultType]::ParameterValue, 'Archive a project: it stays readable, but refuses deposits')
            [CompletionResult]::new('unarchive', 'unarchive', [CompletionResultType]::ParameterValue, 'Undo an archive')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'relay;projects;list' {
            [CompletionResult]::new('--sign-with', '--sign-with', [CompletionResultType]::ParameterName, 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color human output')
            [CompletionResult]::new('--redact-secrets', '--redact-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as <REDACTED:rule-id>')
            [CompletionResult]::new('--allow-secrets', '--allow-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as they are')
            [CompletionResult]::new('--sign', '--sign', [CompletionResultType]::ParameterName, 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON object per line; errors as JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'relay;projects;create' {
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'A display name (default: the id)')
            [CompletionResult]::new('--description', '--description', [CompletionResultType]::ParameterName, 'A longer description')
            [CompletionResult]::new('--sign-with', '--sign-with', [CompletionResultType]::ParameterName, 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color human output')
            [CompletionResult]::new('--redact-secrets', '--redact-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as <REDACTED:rule-id>')
            [CompletionResult]::new('--allow-secrets', '--allow-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as they are')
            [CompletionResult]::new('--sign', '--sign', [CompletionResultType]::ParameterName, 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON object per line; errors as JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'relay;projects;info' {
            [CompletionResult]::new('--sign-with', '--sign-with', [CompletionResultType]::ParameterName, 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color human output')
            [CompletionResult]::new('--redact-secrets', '--redact-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as <REDACTED:rule-id>')
            [CompletionResult]::new('--allow-secrets', '--allow-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as they are')
            [CompletionResult]::new('--sign', '--sign', [CompletionResultType]::ParameterName, 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON object per line; errors as JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'relay;projects;rename' {
            [CompletionResult]::new('--sign-with', '--sign-with', [CompletionResultType]::ParameterName, 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color human output')
            [CompletionResult]::new('--redact-secrets', '--redact-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as <REDACTED:rule-id>')
            [CompletionResult]::new('--allow-secrets', '--allow-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as they are')
            [CompletionResult]::new('--sign', '--sign', [CompletionResultType]::ParameterName, 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON object per line; errors as JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'relay;projects;archive' {
            [CompletionResult]::new('--sign-with', '--sign-with', [CompletionResultType]::ParameterName, 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color human output')
            [CompletionResult]::new('--redact-secrets', '--redact-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as <REDACTED:rule-id>')
            [CompletionResult]::new('--allow-secrets', '--allow-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as they are')
            [CompletionResult]::new('--sign', '--sign', [CompletionResultType]::ParameterName, 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON object per line; errors as JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'relay;projects;unarchive' {
            [CompletionResult]::new('--sign-with', '--sign-with', [CompletionResultType]::ParameterName, 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color human output')
            [CompletionResult]::new('--redact-secrets', '--redact-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as <REDACTED:rule-id>')
            [CompletionResult]::new('--allow-secrets', '--allow-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as they are')
            [CompletionResult]::new('--sign', '--sign', [CompletionResultType]::ParameterName, 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON object per line; errors as JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'relay;projects;help' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List every project (NDJSON of project records with --json)')
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Create a project')
            [CompletionResult]::new('info', 'info', [CompletionResultType]::ParameterValue, 'Show one project and how many packages it holds')
            [CompletionResult]::new('rename', 'rename', [CompletionResultType]::ParameterValue, 'Give a project a new display name (its id never changes)')
            [CompletionResult]::new('archive', 'archive', [CompletionResultType]::ParameterValue, 'Archive a project: it stays readable, but refuses deposits')
            [CompletionResult]::new('unarchive', 'unarchive', [CompletionResultType]::ParameterValue, 'Undo an archive')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'relay;projects;help;list' {
            break
        }
        'relay;projects;help;create' {
            break
        }
        'relay;projects;help;info' {
            break
        }
        'relay;projects;help;rename' {
            break
        }
        'relay;projects;help;archive' {
            break
        }
        'relay;projects;help;unarchive' {
            break
        }
        'relay;projects;help;help' {
            break
        }
        'relay;facts' {
            [CompletionResult]::new('--sign-with', '--sign-with', [CompletionResultType]::ParameterName, 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color human output')
            [CompletionResult]::new('--redact-secrets', '--redact-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as <REDACTED:rule-id>')
            [CompletionResult]::new('--allow-secrets', '--allow-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as they are')
            [CompletionResult]::new('--sign', '--sign', [CompletionResultType]::ParameterName, 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON object per line; errors as JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('assert', 'assert', [CompletionResultType]::ParameterValue, 'Record a value, superseding the current one (a no-op only if the value, confidence, source, tags and start are all already current)')
            [CompletionResult]::new('invalidate', 'invalidate', [CompletionResultType]::ParameterValue, 'End the current fact(s) of a key without a replacement; prints how many ended')
            [CompletionResult]::new('get', 'get', [CompletionResultType]::ParameterValue, 'The current value of a key, or the one valid at --at (exit 1 if none)')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'Current facts (one per subject and predicate), filtered')
            [CompletionResult]::new('history', 'history', [CompletionResultType]::ParameterValue, 'Every value a key has had, oldest first')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'relay;facts;assert' {
            [CompletionResult]::new('--source', '--source', [CompletionResultType]::ParameterName, 'The package this fact comes from (its id, or the start of it); its author becomes the fact''s asserted_by')
            [CompletionResult]::new('--confidence', '--confidence', [CompletionResultType]::ParameterName, 'How sure, from 0 to 1 (default 1)')
            [CompletionResult]::new('--tag', '--tag', [CompletionResultType]::ParameterName, 'A label (repeatable)')
            [CompletionResult]::new('--valid-from', '--valid-from', [CompletionResultType]::ParameterName, 'When it became true (default: now); not before the current fact''s valid_from')
            [CompletionResult]::new('--field', '--field', [CompletionResultType]::ParameterName, 'An extension member the fact keeps (§12.1), KEY named x-*; VALUE is read as JSON when it parses (30, true, ["a"]), else as text (repeatable)')
            [CompletionResult]::new('--expires-at', '--expires-at', [CompletionResultType]::ParameterName, 'Hide the record from reads from TIME on (RFC 3339 or a date; it must be in the future)')
            [CompletionResult]::new('--ttl', '--ttl', [CompletionResultType]::ParameterName, 'Hide the record from reads once this span has passed: 90m, 12h, 30d, 2w')
            [CompletionResult]::new('--actor', '--actor', [CompletionResultType]::ParameterName, 'Who is acting; default: [actor] id in config, then git user.email, then $USER')
            [CompletionResult]::new('--actor-type', '--actor-type', [CompletionResultType]::ParameterName, 'What kind of actor')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session (id or callsign) to record; default: this clone''s current session')
            [CompletionResult]::new('--sign-with', '--sign-with', [CompletionResultType]::ParameterName, 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color human output')
            [CompletionResult]::new('--redact-secrets', '--redact-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as <REDACTED:rule-id>')
            [CompletionResult]::new('--allow-secrets', '--allow-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as they are')
            [CompletionResult]::new('--sign', '--sign', [CompletionResultType]::ParameterName, 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON object per line; errors as JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'relay;facts;invalidate' {
            [CompletionResult]::new('--sign-with', '--sign-with', [CompletionResultType]::ParameterName, 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color human output')
            [CompletionResult]::new('--redact-secrets', '--redact-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as <REDACTED:rule-id>')
            [CompletionResult]::new('--allow-secrets', '--allow-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as they are')
            [CompletionResult]::new('--sign', '--sign', [CompletionResultType]::ParameterName, 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON object per line; errors as JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'relay;facts;get' {
            [CompletionResult]::new('--at', '--at', [CompletionResultType]::ParameterName, 'at')
            [CompletionResult]::new('--sign-with', '--sign-with', [CompletionResultType]::ParameterName, 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color human output')
            [CompletionResult]::new('--include-expired', '--include-expired', [CompletionResultType]::ParameterName, 'Show facts whose x-expires-at has passed (hidden otherwise)')
            [CompletionResult]::new('--include-retracted', '--include-retracted', [CompletionResultType]::ParameterName, 'Show facts that `relay retract` has retracted (hidden otherwise)')
            [CompletionResult]::new('--redact-secrets', '--redact-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as <REDACTED:rule-id>')
            [CompletionResult]::new('--allow-secrets', '--allow-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as they are')
            [CompletionResult]::new('--sign', '--sign', [CompletionResultType]::ParameterName, 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON object per line; errors as JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'relay;facts;list' {
            [CompletionResult]::new('--subject', '--subject', [CompletionResultType]::ParameterName, 'subject')
            [CompletionResult]::new('--predicate', '--predicate', [CompletionResultType]::ParameterName, 'predicate')
            [CompletionResult]::new('--tag', '--tag', [CompletionResultType]::ParameterName, 'tag')
            [CompletionResult]::new('--at', '--at', [CompletionResultType]::ParameterName, 'The facts valid at TIME instead of now')
            [CompletionResult]::new('--as-of', '--as-of', [CompletionResultType]::ParameterName, 'The facts as the store stood at TIME: recorded by then and valid then (unlike --at, facts recorded since with an earlier valid_from are left out)')
            [CompletionResult]::new('--sign-with', '--sign-with', [CompletionResultType]::ParameterName, 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color human output')
            [CompletionResult]::new('--include-ended', '--include-ended', [CompletionResultType]::ParameterName, 'Every fact, ended ones included')
            [CompletionResult]::new('--include-expired', '--include-expired', [CompletionResultType]::ParameterName, 'Show facts whose x-expires-at has passed (hidden otherwise)')
            [CompletionResult]::new('--include-retracted', '--include-retracted', [CompletionResultType]::ParameterName, 'Show facts that `relay retract` has retracted (hidden otherwise)')
            [CompletionResult]::new('--redact-secrets', '--redact-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as <REDACTED:rule-id>')
            [CompletionResult]::new('--allow-secrets', '--allow-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as they are')
            [CompletionResult]::new('--sign', '--sign', [CompletionResultType]::ParameterName, 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON object per line; errors as JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'relay;facts;history' {
            [CompletionResult]::new('--sign-with', '--sign-with', [CompletionResultType]::ParameterName, 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color human output')
            [CompletionResult]::new('--include-expired', '--include-expired', [CompletionResultType]::ParameterName, 'Show facts whose x-expires-at has passed (hidden otherwise)')
            [CompletionResult]::new('--include-retracted', '--include-retracted', [CompletionResultType]::ParameterName, 'Show facts that `relay retract` has retracted (hidden otherwise)')
            [CompletionResult]::new('--redact-secrets', '--redact-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as <REDACTED:rule-id>')
            [CompletionResult]::new('--allow-secrets', '--allow-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as they are')
            [CompletionResult]::new('--sign', '--sign', [CompletionResultType]::ParameterName, 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON object per line; errors as JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'relay;facts;help' {
            [CompletionResult]::new('assert', 'assert', [CompletionResultType]::ParameterValue, 'Record a value, superseding the current one (a no-op only if the value, confidence, source, tags and start are all already current)')
            [CompletionResult]::new('invalidate', 'invalidate', [CompletionResultType]::ParameterValue, 'End the current fact(s) of a key without a replacement; prints how many ended')
            [CompletionResult]::new('get', 'get', [CompletionResultType]::ParameterValue, 'The current value of a key, or the one valid at --at (exit 1 if none)')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'Current facts (one per subject and predicate), filtered')
            [CompletionResult]::new('history', 'history', [CompletionResultType]::ParameterValue, 'Every value a key has had, oldest first')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'relay;facts;help;assert' {
            break
        }
        'relay;facts;help;invalidate' {
            break
        }
        'relay;facts;help;get' {
            break
        }
        'relay;facts;help;list' {
            break
        }
        'relay;facts;help;history' {
            break
        }
        'relay;facts;help;help' {
            break
        }
        'relay;session' {
            [CompletionResult]::new('--sign-with', '--sign-with', [CompletionResultType]::ParameterName, 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color human output')
            [CompletionResult]::new('--redact-secrets', '--redact-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as <REDACTED:rule-id>')
            [CompletionResult]::new('--allow-secrets', '--allow-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as they are')
            [CompletionResult]::new('--sign', '--sign', [CompletionResultType]::ParameterName, 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON object per line; errors as JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('start', 'start', [CompletionResultType]::ParameterValue, 'Start a session and make it current')
            [CompletionResult]::new('end', 'end', [CompletionResultType]::ParameterValue, 'End a session (default: the current one) and record its packages')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'The current session: RELAY_SESSION, else this clone''s')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'Sessions of the project, oldest first')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'A session with the packages deposited in it, their decisions and open questions')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'relay;session;start' {
            [CompletionResult]::new('--actor', '--actor', [CompletionResultType]::ParameterName, 'Who is acting; default: [actor] id in config, then git user.email, then $USER')
            [CompletionResult]::new('--actor-type', '--actor-type', [CompletionResultType]::ParameterName, 'What kind of actor')
            [CompletionResult]::new('--callsign', '--callsign', [CompletionResultType]::ParameterName, 'Use this callsign instead of a generated one')
            [CompletionResult]::new('--sign-with', '--sign-with', [CompletionResultType]::ParameterName, 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color human output')
            [CompletionResult]::new('--shell', '--shell', [CompletionResultType]::ParameterName, 'Print only `export RELAY_SESSION=…` for eval, and leave the clone''s current session')
            [CompletionResult]::new('--redact-secrets', '--redact-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as <REDACTED:rule-id>')
            [CompletionResult]::new('--allow-secrets', '--allow-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as they are')
            [CompletionResult]::new('--sign', '--sign', [CompletionResultType]::ParameterName, 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON object per line; errors as JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'relay;session;end' {
            [CompletionResult]::new('--sign-with', '--sign-with', [CompletionResultType]::ParameterName, 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color human output')
            [CompletionResult]::new('--redact-secrets', '--redact-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as <REDACTED:rule-id>')
            [CompletionResult]::new('--allow-secrets', '--allow-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as they are')
            [CompletionResult]::new('--sign', '--sign', [CompletionResultType]::ParameterName, 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON object per line; errors as JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'relay;session;status' {
            [CompletionResult]::new('--sign-with', '--sign-with', [CompletionResultType]::ParameterName, 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color human output')
            [CompletionResult]::new('--redact-secrets', '--redact-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as <REDACTED:rule-id>')
            [CompletionResult]::new('--allow-secrets', '--allow-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as they are')
            [CompletionResult]::new('--sign', '--sign', [CompletionResultType]::ParameterName, 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON object per line; errors as JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'relay;session;list' {
            [CompletionResult]::new('--as-of', '--as-of', [CompletionResultType]::ParameterName, 'The sessions as they were at TIME: those started by then, open if they ended since, with the packages deposited by then')
            [CompletionResult]::new('--sign-with', '--sign-with', [CompletionResultType]::ParameterName, 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color human output')
            [CompletionResult]::new('--active', '--active', [CompletionResultType]::ParameterName, 'Only sessions that have not ended')
            [CompletionResult]::new('--redact-secrets', '--redact-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as <REDACTED:rule-id>')
            [CompletionResult]::new('--allow-secrets', '--allow-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as they are')
            [CompletionResult]::new('--sign', '--sign', [CompletionResultType]::ParameterName, 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON object per line; errors as JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'relay;session;show' {
            [CompletionResult]::new('--sign-with', '--sign-with', [CompletionResultType]::ParameterName, 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color human output')
            [CompletionResult]::new('--redact-secrets', '--redact-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as <REDACTED:rule-id>')
            [CompletionResult]::new('--allow-secrets', '--allow-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as they are')
            [CompletionResult]::new('--sign', '--sign', [CompletionResultType]::ParameterName, 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON object per line; errors as JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'relay;session;help' {
            [CompletionResult]::new('start', 'start', [CompletionResultType]::ParameterValue, 'Start a session and make it current')
            [CompletionResult]::new('end', 'end', [CompletionResultType]::ParameterValue, 'End a session (default: the current one) and record its packages')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'The current session: RELAY_SESSION, else this clone''s')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'Sessions of the project, oldest first')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'A session with the packages deposited in it, their decisions and open questions')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'relay;session;help;start' {
            break
        }
        'relay;session;help;end' {
            break
        }
        'relay;session;help;status' {
            break
        }
        'relay;session;help;list' {
            break
        }
        'relay;session;help;show' {
            break
        }
        'relay;session;help;help' {
            break
        }
        'relay;lesson' {
            [CompletionResult]::new('--sign-with', '--sign-with', [CompletionResultType]::ParameterName, 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color human output')
            [CompletionResult]::new('--redact-secrets', '--redact-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as <REDACTED:rule-id>')
            [CompletionResult]::new('--allow-secrets', '--allow-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as they are')
            [CompletionResult]::new('--sign', '--sign', [CompletionResultType]::ParameterName, 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON object per line; errors as JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Record a lesson; prints its id and hash like `relay deposit`')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'The project''s lessons, most severe first, then newest')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'relay;lesson;add' {
            [CompletionResult]::new('--content', '--content', [CompletionResultType]::ParameterName, 'The lesson itself, or - to read it from stdin')
            [CompletionResult]::new('--severity', '--severity', [CompletionResultType]::ParameterName, 'How much it matters: info (default), warning or critical')
            [CompletionResult]::new('--tag', '--tag', [CompletionResultType]::ParameterName, 'A tag (repeatable)')
            [CompletionResult]::new('--actor', '--actor', [CompletionResultType]::ParameterName, 'Who is acting; default: [actor] id in config, then git user.email, then $USER')
            [CompletionResult]::new('--actor-type', '--actor-type', [CompletionResultType]::ParameterName, 'What kind of actor')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session (id or callsign) to record; default: this clone''s current session')
            [CompletionResult]::new('--sign-with', '--sign-with', [CompletionResultType]::ParameterName, 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color human output')
            [CompletionResult]::new('--redact-secrets', '--redact-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as <REDACTED:rule-id>')
            [CompletionResult]::new('--allow-secrets', '--allow-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as they are')
            [CompletionResult]::new('--sign', '--sign', [CompletionResultType]::ParameterName, 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON object per line; errors as JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'relay;lesson;list' {
            [CompletionResult]::new('--severity', '--severity', [CompletionResultType]::ParameterName, 'Only lessons of this severity: info, warning or critical')
            [CompletionResult]::new('--tag', '--tag', [CompletionResultType]::ParameterName, 'Only lessons with this tag (repeatable: all of them)')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'At most N lessons')
            [CompletionResult]::new('--as-of', '--as-of', [CompletionResultType]::ParameterName, 'The lessons as the store held them at TIME')
            [CompletionResult]::new('--sign-with', '--sign-with', [CompletionResultType]::ParameterName, 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color human output')
            [CompletionResult]::new('--all-projects', '--all-projects', [CompletionResultType]::ParameterName, 'Cover every project, not just the selected one')
            [CompletionResult]::new('--redact-secrets', '--redact-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as <REDACTED:rule-id>')
            [CompletionResult]::new('--allow-secrets', '--allow-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as they are')
            [CompletionResult]::new('--sign', '--sign', [CompletionResultType]::ParameterName, 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON object per line; errors as JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'relay;lesson;help' {
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Record a lesson; prints its id and hash like `relay deposit`')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'The project''s lessons, most severe first, then newest')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'relay;lesson;help;add' {
            break
        }
        'relay;lesson;help;list' {
            break
        }
        'relay;lesson;help;help' {
            break
        }
        'relay;checkpoint' {
            [CompletionResult]::new('--working-on', '--working-on', [CompletionResultType]::ParameterName, 'What you are working on now')
            [CompletionResult]::new('--decision', '--decision', [CompletionResultType]::ParameterName, 'A decision made (repeatable)')
            [CompletionResult]::new('--blocker', '--blocker', [CompletionResultType]::ParameterName, 'What blocks you (repeatable)')
            [CompletionResult]::new('--artifact', '--artifact', [CompletionResultType]::ParameterName, 'A file or other artifact you are working with (repeatable)')
            [CompletionResult]::new('--flag', '--flag', [CompletionResultType]::ParameterName, 'IDLE, IN_PROGRESS or BLOCKED (any case)')
            [CompletionResult]::new('--actor', '--actor', [CompletionResultType]::ParameterName, 'Who is acting; default: [actor] id in config, then git user.email, then $USER')
            [CompletionResult]::new('--actor-type', '--actor-type', [CompletionResultType]::ParameterName, 'What kind of actor')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session (id or callsign) to record; default: this clone''s current session')
            [CompletionResult]::new('--sign-with', '--sign-with', [CompletionResultType]::ParameterName, 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color human output')
            [CompletionResult]::new('--redact-secrets', '--redact-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as <REDACTED:rule-id>')
            [CompletionResult]::new('--allow-secrets', '--allow-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as they are')
            [CompletionResult]::new('--sign', '--sign', [CompletionResultType]::ParameterName, 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON object per line; errors as JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Each actor''s latest checkpoint in the project (or ACTOR''s), newest first')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'relay;checkpoint;show' {
            [CompletionResult]::new('--as-of', '--as-of', [CompletionResultType]::ParameterName, 'Where each actor stood at TIME (checkpoints recorded by then)')
            [CompletionResult]::new('--sign-with', '--sign-with', [CompletionResultType]::ParameterName, 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color human output')
            [CompletionResult]::new('--redact-secrets', '--redact-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as <REDACTED:rule-id>')
            [CompletionResult]::new('--allow-secrets', '--allow-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as they are')
            [CompletionResult]::new('--sign', '--sign', [CompletionResultType]::ParameterName, 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON object per line; errors as JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'relay;checkpoint;help' {
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Each actor''s latest checkpoint in the project (or ACTOR''s), newest first')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'relay;checkpoint;help;show' {
            break
        }
        'relay;checkpoint;help;help' {
            break
        }
        'relay;snippet' {
            [CompletionResult]::new('--sign-with', '--sign-with', [CompletionResultType]::ParameterName, 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color human output')
            [CompletionResult]::new('--redact-secrets', '--redact-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as <REDACTED:rule-id>')
            [CompletionResult]::new('--allow-secrets', '--allow-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as they are')
            [CompletionResult]::new('--sign', '--sign', [CompletionResultType]::ParameterName, 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON object per line; errors as JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Store lines START..=END of FILE (1-based; the whole file without a range)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'relay;snippet;add' {
            [CompletionResult]::new('--language', '--language', [CompletionResultType]::ParameterName, 'The language of the text, e.g. rust')
            [CompletionResult]::new('--note', '--note', [CompletionResultType]::ParameterName, 'What the snippet shows or why it matters')
            [CompletionResult]::new('--actor', '--actor', [CompletionResultType]::ParameterName, 'Who is acting; default: [actor] id in config, then git user.email, then $USER')
            [CompletionResult]::new('--actor-type', '--actor-type', [CompletionResultType]::ParameterName, 'What kind of actor')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session (id or callsign) to record; default: this clone''s current session')
            [CompletionResult]::new('--sign-with', '--sign-with', [CompletionResultType]::ParameterName, 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color human output')
            [CompletionResult]::new('--redact-secrets', '--redact-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as <REDACTED:rule-id>')
            [CompletionResult]::new('--allow-secrets', '--allow-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as they are')
            [CompletionResult]::new('--sign', '--sign', [CompletionResultType]::ParameterName, 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON object per line; errors as JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'relay;snippet;help' {
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Store lines START..=END of FILE (1-based; the whole file without a range)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'relay;snippet;help;add' {
            break
        }
        'relay;snippet;help;help' {
            break
        }
        'relay;search' {
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'How many results')
            [CompletionResult]::new('--type', '--type', [CompletionResultType]::ParameterName, 'Only this package type (repeatable: any of them)')
            [CompletionResult]::new('--tag', '--tag', [CompletionResultType]::ParameterName, 'Only packages with this tag (repeatable: all of them)')
            [CompletionResult]::new('--created-by', '--created-by', [CompletionResultType]::ParameterName, 'Only packages created by this actor id (`created_by` on MCP and HTTP)')
            [CompletionResult]::new('--actor', '--actor', [CompletionResultType]::ParameterName, 'Only packages created by this actor id (`created_by` on MCP and HTTP)')
            [CompletionResult]::new('--status', '--status', [CompletionResultType]::ParameterName, 'Only packages in this status')
            [CompletionResult]::new('--since', '--since', [CompletionResultType]::ParameterName, 'Only packages created at or after TIME')
            [CompletionResult]::new('--until', '--until', [CompletionResultType]::ParameterName, 'Only packages created before TIME')
            [CompletionResult]::new('--as-of', '--as-of', [CompletionResultType]::ParameterName, 'Read the store as it stood at TIME: packages created by then, at the review version current then; retractions and expiry as of then')
            [CompletionResult]::new('--mode', '--mode', [CompletionResultType]::ParameterName, 'keyword (BM25 over the words), semantic (similarity of meaning, with an embedding model) or hybrid (both lists fused by rank). Default: hybrid when a model is configured, else keyword (`search` on MCP and HTTP)')
            [CompletionResult]::new('--search', '--search', [CompletionResultType]::ParameterName, 'keyword (BM25 over the words), semantic (similarity of meaning, with an embedding model) or hybrid (both lists fused by rank). Default: hybrid when a model is configured, else keyword (`search` on MCP and HTTP)')
            [CompletionResult]::new('--model', '--model', [CompletionResultType]::ParameterName, 'The embedding model''s folder (a Model2Vec static model: config.json, model.safetensors, tokenizer.json; with query/, the transformer that embeds queries, as scripts/fetch-model.sh makes it); else `[search] model` in .relay/config.toml')
            [CompletionResult]::new('--sign-with', '--sign-with', [CompletionResultType]::ParameterName, 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color human output')
            [CompletionResult]::new('--explain', '--explain', [CompletionResultType]::ParameterName, 'Show why each result ranked where it did (its place in each list, its similarity)')
            [CompletionResult]::new('--all-projects', '--all-projects', [CompletionResultType]::ParameterName, 'Cover every project, not just the selected one')
            [CompletionResult]::new('--include-expired', '--include-expired', [CompletionResultType]::ParameterName, 'Show packages whose x-expires-at has passed (hidden otherwise)')
            [CompletionResult]::new('--include-retracted', '--include-retracted', [CompletionResultType]::ParameterName, 'Show packages that `relay retract` has retracted (hidden otherwise)')
            [CompletionResult]::new('--redact-secrets', '--redact-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as <REDACTED:rule-id>')
            [CompletionResult]::new('--allow-secrets', '--allow-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as they are')
            [CompletionResult]::new('--sign', '--sign', [CompletionResultType]::ParameterName, 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON object per line; errors as JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'relay;index' {
            [CompletionResult]::new('--model', '--model', [CompletionResultType]::ParameterName, 'The embedding model''s folder (see `relay search --help`); else `[search] model` in .relay/config.toml')
            [CompletionResult]::new('--sign-with', '--sign-with', [CompletionResultType]::ParameterName, 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color human output')
            [CompletionResult]::new('--background', '--background', [CompletionResultType]::ParameterName, 'Build the vectors quietly and leave a build under way to itself: how a search starts this command in the background')
            [CompletionResult]::new('--redact-secrets', '--redact-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as <REDACTED:rule-id>')
            [CompletionResult]::new('--allow-secrets', '--allow-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as they are')
            [CompletionResult]::new('--sign', '--sign', [CompletionResultType]::ParameterName, 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON object per line; errors as JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'relay;orient' {
            [CompletionResult]::new('--window-days', '--window-days', [CompletionResultType]::ParameterName, 'How many days back to look')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'At most N recent packages, the newest (open questions come from these)')
            [CompletionResult]::new('--as-of', '--as-of', [CompletionResultType]::ParameterName, 'The briefing as it would have been at TIME: the window ends then, and it holds what the store held then; the same bytes however often it is asked for')
            [CompletionResult]::new('--max-chars', '--max-chars', [CompletionResultType]::ParameterName, 'Fit the briefing in N characters (Unicode scalar values), dropping the least important records first; a record is shown whole or not at all')
            [CompletionResult]::new('--max-tokens', '--max-tokens', [CompletionResultType]::ParameterName, 'Fit the briefing in about N tokens, estimated as 4 characters each: the same as --max-chars 4×N')
            [CompletionResult]::new('--sign-with', '--sign-with', [CompletionResultType]::ParameterName, 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color human output')
            [CompletionResult]::new('--md', '--md', [CompletionResultType]::ParameterName, 'Markdown (the default)')
            [CompletionResult]::new('--redact-secrets', '--redact-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as <REDACTED:rule-id>')
            [CompletionResult]::new('--allow-secrets', '--allow-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as they are')
            [CompletionResult]::new('--sign', '--sign', [CompletionResultType]::ParameterName, 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON object per line; errors as JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'relay;orchestrate' {
            [CompletionResult]::new('--focus', '--focus', [CompletionResultType]::ParameterName, 'A topic: pulls the packages most relevant to it')
            [CompletionResult]::new('--snippets', '--snippets', [CompletionResultType]::ParameterName, 'How many relevant packages to pull for --focus')
            [CompletionResult]::new('--window-days', '--window-days', [CompletionResultType]::ParameterName, 'How many days back the summary looks')
            [CompletionResult]::new('--as-of', '--as-of', [CompletionResultType]::ParameterName, 'The digest as it would have been at TIME: the window ends then, and it holds what the store held then; the same bytes however often it is asked for')
            [CompletionResult]::new('--max-chars', '--max-chars', [CompletionResultType]::ParameterName, 'Fit the briefing in N characters (Unicode scalar values), dropping the least important records first; a record is shown whole or not at all')
            [CompletionResult]::new('--max-tokens', '--max-tokens', [CompletionResultType]::ParameterName, 'Fit the briefing in about N tokens, estimated as 4 characters each: the same as --max-chars 4×N')
            [CompletionResult]::new('--mode', '--mode', [CompletionResultType]::ParameterName, 'keyword (BM25 over the words), semantic (similarity of meaning, with an embedding model) or hybrid (both lists fused by rank). Default: hybrid when a model is configured, else keyword (`search` on MCP and HTTP)')
            [CompletionResult]::new('--search', '--search', [CompletionResultType]::ParameterName, 'keyword (BM25 over the words), semantic (similarity of meaning, with an embedding model) or hybrid (both lists fused by rank). Default: hybrid when a model is configured, else keyword (`search` on MCP and HTTP)')
            [CompletionResult]::new('--model', '--model', [CompletionResultType]::ParameterName, 'The embedding model''s folder (a Model2Vec static model: config.json, model.safetensors, tokenizer.json; with query/, the transformer that embeds queries, as scripts/fetch-model.sh makes it); else `[search] model` in .relay/config.toml')
            [CompletionResult]::new('--sign-with', '--sign-with', [CompletionResultType]::ParameterName, 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color human output')
            [CompletionResult]::new('--all-projects', '--all-projects', [CompletionResultType]::ParameterName, 'Every project (global mode), not just the selected one')
            [CompletionResult]::new('--include-archived', '--include-archived', [CompletionResultType]::ParameterName, 'Global mode: include archived projects')
            [CompletionResult]::new('--md', '--md', [CompletionResultType]::ParameterName, 'Markdown (the default)')
            [CompletionResult]::new('--redact-secrets', '--redact-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as <REDACTED:rule-id>')
            [CompletionResult]::new('--allow-secrets', '--allow-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as they are')
            [CompletionResult]::new('--sign', '--sign', [CompletionResultType]::ParameterName, 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON object per line; errors as JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'relay;review' {
            [CompletionResult]::new('--sign-with', '--sign-with', [CompletionResultType]::ParameterName, 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color human output')
            [CompletionResult]::new('--redact-secrets', '--redact-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as <REDACTED:rule-id>')
            [CompletionResult]::new('--allow-secrets', '--allow-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as they are')
            [CompletionResult]::new('--sign', '--sign', [CompletionResultType]::ParameterName, 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON object per line; errors as JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('flag', 'flag', [CompletionResultType]::ParameterValue, 'Ask for review: the package becomes awaiting_review (from draft, awaiting_review or revision_requested)')
            [CompletionResult]::new('approve', 'approve', [CompletionResultType]::ParameterValue, 'Approve: the package becomes complete (from any status but complete)')
            [CompletionResult]::new('request-changes', 'request-changes', [CompletionResultType]::ParameterValue, 'Send it back: awaiting_review becomes revision_requested')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'Packages awaiting review, oldest request first, with who flagged them and why')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'relay;review;flag' {
            [CompletionResult]::new('--review-type', '--review-type', [CompletionResultType]::ParameterName, 'Who reviews it, as MCP and HTTP name it: human (as --human) or agent (as --agent)')
            [CompletionResult]::new('--note', '--note', [CompletionResultType]::ParameterName, 'What to look at')
            [CompletionResult]::new('--actor', '--actor', [CompletionResultType]::ParameterName, 'Who is acting; default: [actor] id in config, then git user.email, then $USER')
            [CompletionResult]::new('--actor-type', '--actor-type', [CompletionResultType]::ParameterName, 'What kind of actor')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session (id or callsign) to record; default: this clone''s current session')
            [CompletionResult]::new('--sign-with', '--sign-with', [CompletionResultType]::ParameterName, 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color human output')
            [CompletionResult]::new('--human', '--human', [CompletionResultType]::ParameterName, 'A person must review it')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'An agent may review it')
            [CompletionResult]::new('--redact-secrets', '--redact-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as <REDACTED:rule-id>')
            [CompletionResult]::new('--allow-secrets', '--allow-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as they are')
            [CompletionResult]::new('--sign', '--sign', [CompletionResultType]::ParameterName, 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON object per line; errors as JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'relay;review;approve' {
            [CompletionResult]::new('--note', '--note', [CompletionResultType]::ParameterName, 'note')
            [CompletionResult]::new('--actor', '--actor', [CompletionResultType]::ParameterName, 'Who is acting; default: [actor] id in config, then git user.email, then $USER')
            [CompletionResult]::new('--actor-type', '--actor-type', [CompletionResultType]::ParameterName, 'What kind of actor')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session (id or callsign) to record; default: this clone''s current session')
            [CompletionResult]::new('--sign-with', '--sign-with', [CompletionResultType]::ParameterName, 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color human output')
            [CompletionResult]::new('--redact-secrets', '--redact-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as <REDACTED:rule-id>')
            [CompletionResult]::new('--allow-secrets', '--allow-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as they are')
            [CompletionResult]::new('--sign', '--sign', [CompletionResultType]::ParameterName, 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON object per line; errors as JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'relay;review;request-changes' {
            [CompletionResult]::new('--note', '--note', [CompletionResultType]::ParameterName, 'What must change (required)')
            [CompletionResult]::new('--actor', '--actor', [CompletionResultType]::ParameterName, 'Who is acting; default: [actor] id in config, then git user.email, then $USER')
            [CompletionResult]::new('--actor-type', '--actor-type', [CompletionResultType]::ParameterName, 'What kind of actor')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session (id or callsign) to record; default: this clone''s current session')
            [CompletionResult]::new('--sign-with', '--sign-with', [CompletionResultType]::ParameterName, 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color human output')
            [CompletionResult]::new('--redact-secrets', '--redact-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as <REDACTED:rule-id>')
            [CompletionResult]::new('--allow-secrets', '--allow-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as they are')
            [CompletionResult]::new('--sign', '--sign', [CompletionResultType]::ParameterName, 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON object per line; errors as JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'relay;review;list' {
            [CompletionResult]::new('--review-type', '--review-type', [CompletionResultType]::ParameterName, 'Who reviews it, as MCP and HTTP name it: human (as --human) or agent (as --agent)')
            [CompletionResult]::new('--sign-with', '--sign-with', [CompletionResultType]::ParameterName, 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color human output')
            [CompletionResult]::new('--human', '--human', [CompletionResultType]::ParameterName, 'A person must review it')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'An agent may review it')
            [CompletionResult]::new('--all-projects', '--all-projects', [CompletionResultType]::ParameterName, 'Every project, not just the selected one')
            [CompletionResult]::new('--redact-secrets', '--redact-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as <REDACTED:rule-id>')
            [CompletionResult]::new('--allow-secrets', '--allow-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as they are')
            [CompletionResult]::new('--sign', '--sign', [CompletionResultType]::ParameterName, 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON object per line; errors as JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'relay;review;help' {
            [CompletionResult]::new('flag', 'flag', [CompletionResultType]::ParameterValue, 'Ask for review: the package becomes awaiting_review (from draft, awaiting_review or revision_requested)')
            [CompletionResult]::new('approve', 'approve', [CompletionResultType]::ParameterValue, 'Approve: the package becomes complete (from any status but complete)')
            [CompletionResult]::new('request-changes', 'request-changes', [CompletionResultType]::ParameterValue, 'Send it back: awaiting_review becomes revision_requested')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'Packages awaiting review, oldest request first, with who flagged them and why')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'relay;review;help;flag' {
            break
        }
        'relay;review;help;approve' {
            break
        }
        'relay;review;help;request-changes' {
            break
        }
        'relay;review;help;list' {
            break
        }
        'relay;review;help;help' {
            break
        }
        'relay;retract' {
            [CompletionResult]::new('--reason', '--reason', [CompletionResultType]::ParameterName, 'Why: kept with the retraction and shown in the record''s history')
            [CompletionResult]::new('--actor', '--actor', [CompletionResultType]::ParameterName, 'Who is acting; default: [actor] id in config, then git user.email, then $USER')
            [CompletionResult]::new('--actor-type', '--actor-type', [CompletionResultType]::ParameterName, 'What kind of actor')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session (id or callsign) to record; default: this clone''s current session')
            [CompletionResult]::new('--sign-with', '--sign-with', [CompletionResultType]::ParameterName, 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color human output')
            [CompletionResult]::new('--redact-secrets', '--redact-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as <REDACTED:rule-id>')
            [CompletionResult]::new('--allow-secrets', '--allow-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as they are')
            [CompletionResult]::new('--sign', '--sign', [CompletionResultType]::ParameterName, 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON object per line; errors as JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'relay;purge' {
            [CompletionResult]::new('--sign-with', '--sign-with', [CompletionResultType]::ParameterName, 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color human output')
            [CompletionResult]::new('--expired', '--expired', [CompletionResultType]::ParameterName, 'Remove records whose x-expires-at has passed')
            [CompletionResult]::new('--retracted', '--retracted', [CompletionResultType]::ParameterName, 'Remove records that `relay retract` retracted')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Say what would be removed; change nothing')
            [CompletionResult]::new('--no-backup', '--no-backup', [CompletionResultType]::ParameterName, 'Do not keep the old files under .relay/local/purged/')
            [CompletionResult]::new('--all-projects', '--all-projects', [CompletionResultType]::ParameterName, 'Every project, not just the selected one')
            [CompletionResult]::new('--redact-secrets', '--redact-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as <REDACTED:rule-id>')
            [CompletionResult]::new('--allow-secrets', '--allow-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as they are')
            [CompletionResult]::new('--sign', '--sign', [CompletionResultType]::ParameterName, 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON object per line; errors as JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'relay;status' {
            [CompletionResult]::new('--sign-with', '--sign-with', [CompletionResultType]::ParameterName, 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color human output')
            [CompletionResult]::new('--redact-secrets', '--redact-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as <REDACTED:rule-id>')
            [CompletionResult]::new('--allow-secrets', '--allow-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as they are')
            [CompletionResult]::new('--sign', '--sign', [CompletionResultType]::ParameterName, 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON object per line; errors as JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'relay;export' {
            [CompletionResult]::new('--out', '--out', [CompletionResultType]::ParameterName, 'A new or empty folder, or - for stdout')
            [CompletionResult]::new('--share', '--share', [CompletionResultType]::ParameterName, 'Apply the share profile [share.NAME] of config.toml: what may leave, dropped, redacted')
            [CompletionResult]::new('--sign-with', '--sign-with', [CompletionResultType]::ParameterName, 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color human output')
            [CompletionResult]::new('--all-projects', '--all-projects', [CompletionResultType]::ParameterName, 'Every project, not just the selected one')
            [CompletionResult]::new('--redact-secrets', '--redact-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as <REDACTED:rule-id>')
            [CompletionResult]::new('--allow-secrets', '--allow-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as they are')
            [CompletionResult]::new('--sign', '--sign', [CompletionResultType]::ParameterName, 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON object per line; errors as JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'relay;import' {
            [CompletionResult]::new('--project-map', '--project-map', [CompletionResultType]::ParameterName, 'Import project OLD as NEW (repeatable)')
            [CompletionResult]::new('--on-conflict', '--on-conflict', [CompletionResultType]::ParameterName, 'What to do with a record the store refuses: a package id held with other content or by another project, a package taken back in its review, a fact whose source package is missing (skip: leave it out and list it)')
            [CompletionResult]::new('--sign-with', '--sign-with', [CompletionResultType]::ParameterName, 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color human output')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Report what would change; write nothing')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Import a backup folder that has no manifest')
            [CompletionResult]::new('--redact-secrets', '--redact-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as <REDACTED:rule-id>')
            [CompletionResult]::new('--allow-secrets', '--allow-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as they are')
            [CompletionResult]::new('--sign', '--sign', [CompletionResultType]::ParameterName, 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON object per line; errors as JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'relay;verify' {
            [CompletionResult]::new('--sign-with', '--sign-with', [CompletionResultType]::ParameterName, 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color human output')
            [CompletionResult]::new('--fix', '--fix', [CompletionResultType]::ParameterName, 'Repair what is safe, then check again')
            [CompletionResult]::new('--signatures', '--signatures', [CompletionResultType]::ParameterName, 'Also judge every record version''s signature against .relay/allowed_signers')
            [CompletionResult]::new('--redact-secrets', '--redact-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as <REDACTED:rule-id>')
            [CompletionResult]::new('--allow-secrets', '--allow-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as they are')
            [CompletionResult]::new('--sign', '--sign', [CompletionResultType]::ParameterName, 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON object per line; errors as JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'relay;doctor' {
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'A relay server to check: it must answer GET URL/v1/conformance (http:// only)')
            [CompletionResult]::new('--sign-with', '--sign-with', [CompletionResultType]::ParameterName, 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color human output')
            [CompletionResult]::new('--redact-secrets', '--redact-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as <REDACTED:rule-id>')
            [CompletionResult]::new('--allow-secrets', '--allow-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as they are')
            [CompletionResult]::new('--sign', '--sign', [CompletionResultType]::ParameterName, 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON object per line; errors as JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'relay;resolve' {
            [CompletionResult]::new('--sign-with', '--sign-with', [CompletionResultType]::ParameterName, 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color human output')
            [CompletionResult]::new('--redact-secrets', '--redact-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as <REDACTED:rule-id>')
            [CompletionResult]::new('--allow-secrets', '--allow-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as they are')
            [CompletionResult]::new('--sign', '--sign', [CompletionResultType]::ParameterName, 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON object per line; errors as JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'relay;merge' {
            [CompletionResult]::new('--sign-with', '--sign-with', [CompletionResultType]::ParameterName, 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color human output')
            [CompletionResult]::new('--no-commit', '--no-commit', [CompletionResultType]::ParameterName, 'Leave the merge staged (MERGE_HEAD set) for `git commit` instead of committing')
            [CompletionResult]::new('--redact-secrets', '--redact-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as <REDACTED:rule-id>')
            [CompletionResult]::new('--allow-secrets', '--allow-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as they are')
            [CompletionResult]::new('--sign', '--sign', [CompletionResultType]::ParameterName, 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON object per line; errors as JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'relay;keys' {
            [CompletionResult]::new('--sign-with', '--sign-with', [CompletionResultType]::ParameterName, 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color human output')
            [CompletionResult]::new('--redact-secrets', '--redact-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as <REDACTED:rule-id>')
            [CompletionResult]::new('--allow-secrets', '--allow-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as they are')
            [CompletionResult]::new('--sign', '--sign', [CompletionResultType]::ParameterName, 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON object per line; errors as JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('generate', 'generate', [CompletionResultType]::ParameterValue, 'Make an Ed25519 key (mode 0600, and KEY.pub) and print its allowed_signers line')
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Allow a key you already have: append its allowed_signers line for you')
            [CompletionResult]::new('rotate', 'rotate', [CompletionResultType]::ParameterValue, 'Move to a new signing key: a key rotation record signed with the current key, and the new key''s line in .relay/allowed_signers')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'The entries of .relay/allowed_signers: principals, key type, fingerprint, options')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'relay;keys;generate' {
            [CompletionResult]::new('--out', '--out', [CompletionResultType]::ParameterName, 'Where to write the private key (the public key goes to PATH.pub)')
            [CompletionResult]::new('--actor', '--actor', [CompletionResultType]::ParameterName, 'The actor the key signs as; default: [actor] id in config, then git user.email, then $USER')
            [CompletionResult]::new('--sign-with', '--sign-with', [CompletionResultType]::ParameterName, 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color human output')
            [CompletionResult]::new('--add', '--add', [CompletionResultType]::ParameterName, 'Also append the line to .relay/allowed_signers')
            [CompletionResult]::new('--redact-secrets', '--redact-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as <REDACTED:rule-id>')
            [CompletionResult]::new('--allow-secrets', '--allow-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as they are')
            [CompletionResult]::new('--sign', '--sign', [CompletionResultType]::ParameterName, 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON object per line; errors as JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'relay;keys;add' {
            [CompletionResult]::new('--actor', '--actor', [CompletionResultType]::ParameterName, 'The actor the key signs as; default: [actor] id in config, then git user.email, then $USER')
            [CompletionResult]::new('--sign-with', '--sign-with', [CompletionResultType]::ParameterName, 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color human output')
            [CompletionResult]::new('--redact-secrets', '--redact-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as <REDACTED:rule-id>')
            [CompletionResult]::new('--allow-secrets', '--allow-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as they are')
            [CompletionResult]::new('--sign', '--sign', [CompletionResultType]::ParameterName, 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON object per line; errors as JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'relay;keys;rotate' {
            [CompletionResult]::new('--new', '--new', [CompletionResultType]::ParameterName, 'The new key: an OpenSSH key file (private, or PATH.pub), made there as `keys generate` would when PATH does not exist yet')
            [CompletionResult]::new('--actor', '--actor', [CompletionResultType]::ParameterName, 'The actor whose key it is; default: [actor] id in config, then git user.email, then $USER')
            [CompletionResult]::new('--sign-with', '--sign-with', [CompletionResultType]::ParameterName, 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color human output')
            [CompletionResult]::new('--redact-secrets', '--redact-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as <REDACTED:rule-id>')
            [CompletionResult]::new('--allow-secrets', '--allow-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as they are')
            [CompletionResult]::new('--sign', '--sign', [CompletionResultType]::ParameterName, 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON object per line; errors as JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'relay;keys;list' {
            [CompletionResult]::new('--sign-with', '--sign-with', [CompletionResultType]::ParameterName, 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color human output')
            [CompletionResult]::new('--redact-secrets', '--redact-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as <REDACTED:rule-id>')
            [CompletionResult]::new('--allow-secrets', '--allow-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as they are')
            [CompletionResult]::new('--sign', '--sign', [CompletionResultType]::ParameterName, 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON object per line; errors as JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'relay;keys;help' {
            [CompletionResult]::new('generate', 'generate', [CompletionResultType]::ParameterValue, 'Make an Ed25519 key (mode 0600, and KEY.pub) and print its allowed_signers line')
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Allow a key you already have: append its allowed_signers line for you')
            [CompletionResult]::new('rotate', 'rotate', [CompletionResultType]::ParameterValue, 'Move to a new signing key: a key rotation record signed with the current key, and the new key''s line in .relay/allowed_signers')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'The entries of .relay/allowed_signers: principals, key type, fingerprint, options')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'relay;keys;help;generate' {
            break
        }
        'relay;keys;help;add' {
            break
        }
        'relay;keys;help;rotate' {
            break
        }
        'relay;keys;help;list' {
            break
        }
        'relay;keys;help;help' {
            break
        }
        'relay;hook' {
            [CompletionResult]::new('--sign-with', '--sign-with', [CompletionResultType]::ParameterName, 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color human output')
            [CompletionResult]::new('--redact-secrets', '--redact-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as <REDACTED:rule-id>')
            [CompletionResult]::new('--allow-secrets', '--allow-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as they are')
            [CompletionResult]::new('--sign', '--sign', [CompletionResultType]::ParameterName, 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON object per line; errors as JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('install', 'install', [CompletionResultType]::ParameterValue, 'Install hooks (installing twice changes nothing)')
            [CompletionResult]::new('uninstall', 'uninstall', [CompletionResultType]::ParameterValue, 'Remove relay''s hooks and restore what was there before')
            [CompletionResult]::new('flush', 'flush', [CompletionResultType]::ParameterValue, 'Move what relay''s hooks queued into the store''s logs (the pre-commit hook runs it)')
            [CompletionResult]::new('reconcile', 'reconcile', [CompletionResultType]::ParameterValue, 'Put back into the queue what a git move took from the store (post-merge and post-rewrite run it)')
            [CompletionResult]::new('merge-driver', 'merge-driver', [CompletionResultType]::ParameterValue, 'Merge two versions of a store log (git runs it: `merge.relay.driver`)')
            [CompletionResult]::new('run', 'run', [CompletionResultType]::ParameterValue, 'Handle one agent event (what the installed agent hooks run)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'relay;hook;install' {
            [CompletionResult]::new('--sign-with', '--sign-with', [CompletionResultType]::ParameterName, 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color human output')
            [CompletionResult]::new('--git', '--git', [CompletionResultType]::ParameterName, 'The git hooks of the repository you are in')
            [CompletionResult]::new('--claude', '--claude', [CompletionResultType]::ParameterName, 'Claude Code''s .claude/settings.json in the repository''s top folder')
            [CompletionResult]::new('--codex', '--codex', [CompletionResultType]::ParameterName, 'Codex''s .codex/hooks.json in the repository''s top folder')
            [CompletionResult]::new('--gemini', '--gemini', [CompletionResultType]::ParameterName, 'Gemini CLI''s .gemini/settings.json in the repository''s top folder')
            [CompletionResult]::new('--cursor', '--cursor', [CompletionResultType]::ParameterName, 'Cursor''s .cursor/hooks.json in the repository''s top folder')
            [CompletionResult]::new('--opencode', '--opencode', [CompletionResultType]::ParameterName, 'An OpenCode plugin, .opencode/plugins/relay.js, in the repository''s top folder')
            [CompletionResult]::new('--redact-secrets', '--redact-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as <REDACTED:rule-id>')
            [CompletionResult]::new('--allow-secrets', '--allow-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as they are')
            [CompletionResult]::new('--sign', '--sign', [CompletionResultType]::ParameterName, 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON object per line; errors as JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'relay;hook;uninstall' {
            [CompletionResult]::new('--sign-with', '--sign-with', [CompletionResultType]::ParameterName, 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color human output')
            [CompletionResult]::new('--git', '--git', [CompletionResultType]::ParameterName, 'The git hooks of the repository you are in')
            [CompletionResult]::new('--claude', '--claude', [CompletionResultType]::ParameterName, 'Claude Code''s .claude/settings.json in the repository''s top folder')
            [CompletionResult]::new('--codex', '--codex', [CompletionResultType]::ParameterName, 'Codex''s .codex/hooks.json in the repository''s top folder')
            [CompletionResult]::new('--gemini', '--gemini', [CompletionResultType]::ParameterName, 'Gemini CLI''s .gemini/settings.json in the repository''s top folder')
            [CompletionResult]::new('--cursor', '--cursor', [CompletionResultType]::ParameterName, 'Cursor''s .cursor/hooks.json in the repository''s top folder')
            [CompletionResult]::new('--opencode', '--opencode', [CompletionResultType]::ParameterName, 'An OpenCode plugin, .opencode/plugins/relay.js, in the repository''s top folder')
            [CompletionResult]::new('--redact-secrets', '--redact-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as <REDACTED:rule-id>')
            [CompletionResult]::new('--allow-secrets', '--allow-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as they are')
            [CompletionResult]::new('--sign', '--sign', [CompletionResultType]::ParameterName, 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON object per line; errors as JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'relay;hook;flush' {
            [CompletionResult]::new('--sign-with', '--sign-with', [CompletionResultType]::ParameterName, 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color human output')
            [CompletionResult]::new('--stage', '--stage', [CompletionResultType]::ParameterName, 'Also add the store files it changed to git''s index (what the pre-commit hook asks)')
            [CompletionResult]::new('--redact-secrets', '--redact-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as <REDACTED:rule-id>')
            [CompletionResult]::new('--allow-secrets', '--allow-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as they are')
            [CompletionResult]::new('--sign', '--sign', [CompletionResultType]::ParameterName, 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON object per line; errors as JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'relay;hook;reconcile' {
            [CompletionResult]::new('--sign-with', '--sign-with', [CompletionResultType]::ParameterName, 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color human output')
            [CompletionResult]::new('--redact-secrets', '--redact-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as <REDACTED:rule-id>')
            [CompletionResult]::new('--allow-secrets', '--allow-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as they are')
            [CompletionResult]::new('--sign', '--sign', [CompletionResultType]::ParameterName, 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON object per line; errors as JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'relay;hook;merge-driver' {
            [CompletionResult]::new('--sign-with', '--sign-with', [CompletionResultType]::ParameterName, 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color human output')
            [CompletionResult]::new('--redact-secrets', '--redact-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as <REDACTED:rule-id>')
            [CompletionResult]::new('--allow-secrets', '--allow-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as they are')
            [CompletionResult]::new('--sign', '--sign', [CompletionResultType]::ParameterName, 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON object per line; errors as JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'relay;hook;run' {
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'The agent that sends it')
            [CompletionResult]::new('--max-chars', '--max-chars', [CompletionResultType]::ParameterName, 'SessionStart''s briefing budget in characters [default: 9000 for claude and gemini, 8000 for codex, cursor and opencode]')
            [CompletionResult]::new('--sign-with', '--sign-with', [CompletionResultType]::ParameterName, 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color human output')
            [CompletionResult]::new('--redact-secrets', '--redact-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as <REDACTED:rule-id>')
            [CompletionResult]::new('--allow-secrets', '--allow-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as they are')
            [CompletionResult]::new('--sign', '--sign', [CompletionResultType]::ParameterName, 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON object per line; errors as JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'relay;hook;help' {
            [CompletionResult]::new('install', 'install', [CompletionResultType]::ParameterValue, 'Install hooks (installing twice changes nothing)')
            [CompletionResult]::new('uninstall', 'uninstall', [CompletionResultType]::ParameterValue, 'Remove relay''s hooks and restore what was there before')
            [CompletionResult]::new('flush', 'flush', [CompletionResultType]::ParameterValue, 'Move what relay''s hooks queued into the store''s logs (the pre-commit hook runs it)')
            [CompletionResult]::new('reconcile', 'reconcile', [CompletionResultType]::ParameterValue, 'Put back into the queue what a git move took from the store (post-merge and post-rewrite run it)')
            [CompletionResult]::new('merge-driver', 'merge-driver', [CompletionResultType]::ParameterValue, 'Merge two versions of a store log (git runs it: `merge.relay.driver`)')
            [CompletionResult]::new('run', 'run', [CompletionResultType]::ParameterValue, 'Handle one agent event (what the installed agent hooks run)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'relay;hook;help;install' {
            break
        }
        'relay;hook;help;uninstall' {
            break
        }
        'relay;hook;help;flush' {
            break
        }
        'relay;hook;help;reconcile' {
            break
        }
        'relay;hook;help;merge-driver' {
            break
        }
        'relay;hook;help;run' {
            break
        }
        'relay;hook;help;help' {
            break
        }
        'relay;scan' {
            [CompletionResult]::new('--sign-with', '--sign-with', [CompletionResultType]::ParameterName, 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color human output')
            [CompletionResult]::new('--staged', '--staged', [CompletionResultType]::ParameterName, 'Only the store lines staged for commit')
            [CompletionResult]::new('--redact-secrets', '--redact-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as <REDACTED:rule-id>')
            [CompletionResult]::new('--allow-secrets', '--allow-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as they are')
            [CompletionResult]::new('--sign', '--sign', [CompletionResultType]::ParameterName, 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON object per line; errors as JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'relay;conformance' {
            [CompletionResult]::new('--model', '--model', [CompletionResultType]::ParameterName, 'The embedding model''s folder (see `relay search --help`)')
            [CompletionResult]::new('--check', '--check', [CompletionResultType]::ParameterName, 'Run the conformance test suite instead: against this build on a scratch store it deletes after (no URL), or against the server at this http or https URL (with --project ID, an existing project to write into, or --scratch-ok)')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'With --check: the token to send as `Authorization: Bearer TOKEN`')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'With --check: the seconds one request may take')
            [CompletionResult]::new('--sign-with', '--sign-with', [CompletionResultType]::ParameterName, 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color human output')
            [CompletionResult]::new('--scratch-ok', '--scratch-ok', [CompletionResultType]::ParameterName, 'With --check URL: the store behind URL is a scratch one, where the suite may make a project and leave it archived')
            [CompletionResult]::new('--redact-secrets', '--redact-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as <REDACTED:rule-id>')
            [CompletionResult]::new('--allow-secrets', '--allow-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as they are')
            [CompletionResult]::new('--sign', '--sign', [CompletionResultType]::ParameterName, 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON object per line; errors as JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'relay;completions' {
            [CompletionResult]::new('--sign-with', '--sign-with', [CompletionResultType]::ParameterName, 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color human output')
            [CompletionResult]::new('--redact-secrets', '--redact-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as <REDACTED:rule-id>')
            [CompletionResult]::new('--allow-secrets', '--allow-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as they are')
            [CompletionResult]::new('--sign', '--sign', [CompletionResultType]::ParameterName, 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON object per line; errors as JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'relay;onboard' {
            [CompletionResult]::new('--write', '--write', [CompletionResultType]::ParameterName, 'Write the block into FILE (atomically) instead of printing it')
            [CompletionResult]::new('--sign-with', '--sign-with', [CompletionResultType]::ParameterName, 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color human output')
            [CompletionResult]::new('--redact-secrets', '--redact-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as <REDACTED:rule-id>')
            [CompletionResult]::new('--allow-secrets', '--allow-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as they are')
            [CompletionResult]::new('--sign', '--sign', [CompletionResultType]::ParameterName, 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON object per line; errors as JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'relay;mcp' {
            [CompletionResult]::new('--actor', '--actor', [CompletionResultType]::ParameterName, 'Who is acting; default: [actor] id in config, then git user.email, then $USER')
            [CompletionResult]::new('--actor-type', '--actor-type', [CompletionResultType]::ParameterName, 'What kind of actor')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session (id or callsign) to record; default: this clone''s current session')
            [CompletionResult]::new('--model', '--model', [CompletionResultType]::ParameterName, 'The embedding model for semantic and hybrid search (see `relay search --help`)')
            [CompletionResult]::new('--sign-with', '--sign-with', [CompletionResultType]::ParameterName, 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color human output')
            [CompletionResult]::new('--redact-secrets', '--redact-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as <REDACTED:rule-id>')
            [CompletionResult]::new('--allow-secrets', '--allow-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as they are')
            [CompletionResult]::new('--sign', '--sign', [CompletionResultType]::ParameterName, 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON object per line; errors as JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'relay;watch' {
            [CompletionResult]::new('--since', '--since', [CompletionResultType]::ParameterName, 'Where to start: `now` (the default), `beginning`, or a cursor from an earlier event')
            [CompletionResult]::new('--kind', '--kind', [CompletionResultType]::ParameterName, 'The kinds to print, comma-separated: package, transition, fact, session, project, retracted, expired (default: all). A hidden package or fact comes as retracted or expired when its own kind is asked for. Resync events always come')
            [CompletionResult]::new('--until-idle', '--until-idle', [CompletionResultType]::ParameterName, 'Exit after SECONDS with no new event')
            [CompletionResult]::new('--sign-with', '--sign-with', [CompletionResultType]::ParameterName, 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color human output')
            [CompletionResult]::new('--all-projects', '--all-projects', [CompletionResultType]::ParameterName, 'Every project, including those created while watching (default: the current project)')
            [CompletionResult]::new('--once', '--once', [CompletionResultType]::ParameterName, 'Print what is there after --since, then exit')
            [CompletionResult]::new('--cursor', '--cursor', [CompletionResultType]::ParameterName, 'Print the cursor of the current end of the store (for a later --since) and exit')
            [CompletionResult]::new('--redact-secrets', '--redact-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as <REDACTED:rule-id>')
            [CompletionResult]::new('--allow-secrets', '--allow-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as they are')
            [CompletionResult]::new('--sign', '--sign', [CompletionResultType]::ParameterName, 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON object per line; errors as JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'relay;serve' {
            [CompletionResult]::new('--listen', '--listen', [CompletionResultType]::ParameterName, 'The address to listen on, IP:PORT or NAME:PORT (localhost:7700 binds loopback; port 0: any free port). Only loopback until a token exists')
            [CompletionResult]::new('--max-body', '--max-body', [CompletionResultType]::ParameterName, 'The largest request body, in bytes (larger: 413)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Seconds a request may take to arrive and be answered (slower: 408, or for headers the connection is closed)')
            [CompletionResult]::new('--max-streams', '--max-streams', [CompletionResultType]::ParameterName, 'The most event streams (/v1/projects/{id}/events, GET /mcp) open at once; past it a new one is refused with 503 and Retry-After. An open stream holds a socket, no thread')
            [CompletionResult]::new('--max-streams-per-caller', '--max-streams-per-caller', [CompletionResultType]::ParameterName, 'The most event streams one caller (a token, a console login, the local user) holds open; past it its new one is refused with 429 and Retry-After')
            [CompletionResult]::new('--model', '--model', [CompletionResultType]::ParameterName, 'The embedding model for semantic and hybrid search (see `relay search --help`)')
            [CompletionResult]::new('--allow-host', '--allow-host', [CompletionResultType]::ParameterName, 'Answer requests whose Host is NAME too (repeatable): the name clients reach the server by, behind a proxy or under a DNS name. NAME matches any port, NAME:PORT that port only. Without it, only the listening address and localhost are answered (421 otherwise), so that a web page cannot reach the server under a name of its own')
            [CompletionResult]::new('--actor', '--actor', [CompletionResultType]::ParameterName, 'Who is acting; default: [actor] id in config, then git user.email, then $USER')
            [CompletionResult]::new('--actor-type', '--actor-type', [CompletionResultType]::ParameterName, 'What kind of actor')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session (id or callsign) to record; default: this clone''s current session')
            [CompletionResult]::new('--sign-with', '--sign-with', [CompletionResultType]::ParameterName, 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color human output')
            [CompletionResult]::new('--redact-secrets', '--redact-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as <REDACTED:rule-id>')
            [CompletionResult]::new('--allow-secrets', '--allow-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as they are')
            [CompletionResult]::new('--sign', '--sign', [CompletionResultType]::ParameterName, 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON object per line; errors as JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'relay;token' {
            [CompletionResult]::new('--sign-with', '--sign-with', [CompletionResultType]::ParameterName, 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color human output')
            [CompletionResult]::new('--redact-secrets', '--redact-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as <REDACTED:rule-id>')
            [CompletionResult]::new('--allow-secrets', '--allow-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as they are')
            [CompletionResult]::new('--sign', '--sign', [CompletionResultType]::ParameterName, 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON object per line; errors as JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Make a token and print it (once: only its hash is kept)')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'Every token, revoked ones too (no secrets: ids, actors, scopes, times)')
            [CompletionResult]::new('narrow', 'narrow', [CompletionResultType]::ParameterValue, 'Narrow a token: keep only some of its projects, or make it read-only')
            [CompletionResult]::new('revoke', 'revoke', [CompletionResultType]::ParameterValue, 'Revoke a token: requests with it are refused from now on, its open streams end')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'relay;token;create' {
            [CompletionResult]::new('--actor', '--actor', [CompletionResultType]::ParameterName, 'The actor the token acts as')
            [CompletionResult]::new('--actor-type', '--actor-type', [CompletionResultType]::ParameterName, 'What kind of actor')
            [CompletionResult]::new('--scope', '--scope', [CompletionResultType]::ParameterName, 'Limit the token to this project too (repeatable, or comma-separated)')
            [CompletionResult]::new('--sign-with', '--sign-with', [CompletionResultType]::ParameterName, 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color human output')
            [CompletionResult]::new('--read-only', '--read-only', [CompletionResultType]::ParameterName, 'The token may read, never write')
            [CompletionResult]::new('--redact-secrets', '--redact-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as <REDACTED:rule-id>')
            [CompletionResult]::new('--allow-secrets', '--allow-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as they are')
            [CompletionResult]::new('--sign', '--sign', [CompletionResultType]::ParameterName, 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON object per line; errors as JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'relay;token;list' {
            [CompletionResult]::new('--sign-with', '--sign-with', [CompletionResultType]::ParameterName, 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color human output')
            [CompletionResult]::new('--redact-secrets', '--redact-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as <REDACTED:rule-id>')
            [CompletionResult]::new('--allow-secrets', '--allow-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as they are')
            [CompletionResult]::new('--sign', '--sign', [CompletionResultType]::ParameterName, 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON object per line; errors as JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'relay;token;narrow' {
            [CompletionResult]::new('--scope', '--scope', [CompletionResultType]::ParameterName, 'A project the token keeps (repeatable, or comma-separated); the others are dropped')
            [CompletionResult]::new('--sign-with', '--sign-with', [CompletionResultType]::ParameterName, 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color human output')
            [CompletionResult]::new('--read-only', '--read-only', [CompletionResultType]::ParameterName, 'The token may read from now on, never write')
            [CompletionResult]::new('--redact-secrets', '--redact-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as <REDACTED:rule-id>')
            [CompletionResult]::new('--allow-secrets', '--allow-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as they are')
            [CompletionResult]::new('--sign', '--sign', [CompletionResultType]::ParameterName, 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON object per line; errors as JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'relay;token;revoke' {
            [CompletionResult]::new('--sign-with', '--sign-with', [CompletionResultType]::ParameterName, 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color human output')
            [CompletionResult]::new('--redact-secrets', '--redact-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as <REDACTED:rule-id>')
            [CompletionResult]::new('--allow-secrets', '--allow-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as they are')
            [CompletionResult]::new('--sign', '--sign', [CompletionResultType]::ParameterName, 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON object per line; errors as JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'relay;token;help' {
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Make a token and print it (once: only its hash is kept)')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'Every token, revoked ones too (no secrets: ids, actors, scopes, times)')
            [CompletionResult]::new('narrow', 'narrow', [CompletionResultType]::ParameterValue, 'Narrow a token: keep only some of its projects, or make it read-only')
            [CompletionResult]::new('revoke', 'revoke', [CompletionResultType]::ParameterValue, 'Revoke a token: requests with it are refused from now on, its open streams end')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'relay;token;help;create' {
            break
        }
        'relay;token;help;list' {
            break
        }
        'relay;token;help;narrow' {
            break
        }
        'relay;token;help;revoke' {
            break
        }
        'relay;token;help;help' {
            break
        }
        'relay;ui' {
            [CompletionResult]::new('--port', '--port', [CompletionResultType]::ParameterName, 'The port on 127.0.0.1 (0: any free port)')
            [CompletionResult]::new('--model', '--model', [CompletionResultType]::ParameterName, 'The embedding model for search by meaning (see `relay search --help`)')
            [CompletionResult]::new('--actor', '--actor', [CompletionResultType]::ParameterName, 'Who is acting; default: [actor] id in config, then git user.email, then $USER')
            [CompletionResult]::new('--actor-type', '--actor-type', [CompletionResultType]::ParameterName, 'What kind of actor')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session (id or callsign) to record; default: this clone''s current session')
            [CompletionResult]::new('--sign-with', '--sign-with', [CompletionResultType]::ParameterName, 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color human output')
            [CompletionResult]::new('--no-open', '--no-open', [CompletionResultType]::ParameterName, 'Print the link, do not open a browser')
            [CompletionResult]::new('--redact-secrets', '--redact-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as <REDACTED:rule-id>')
            [CompletionResult]::new('--allow-secrets', '--allow-secrets', [CompletionResultType]::ParameterName, 'For this command, store credentials found in the input as they are')
            [CompletionResult]::new('--sign', '--sign', [CompletionResultType]::ParameterName, 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON object per line; errors as JSON on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only results: no notes or warnings on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'relay;help' {
            [CompletionResult]::new('init', 'init', [CompletionResultType]::ParameterValue, 'Create a relay store (.relay/) in this folder, with a first project')
            [CompletionResult]::new('deposit', 'deposit', [CompletionResultType]::ParameterValue, 'Record a context package: what you did, decided, left open, and who should pick it up')
            [CompletionResult]::new('pull', 'pull', [CompletionResultType]::ParameterValue, 'Read packages: one in full by id, the newest ones, or the most relevant to a query')
            [CompletionResult]::new('projects', 'projects', [CompletionResultType]::ParameterValue, 'Manage the store''s projects')
            [CompletionResult]::new('facts', 'facts', [CompletionResultType]::ParameterValue, 'Track what is true now, and what was true then')
            [CompletionResult]::new('session', 'session', [CompletionResultType]::ParameterValue, 'Group work into sessions with memorable callsigns (e.g. coral-heron)')
            [CompletionResult]::new('lesson', 'lesson', [CompletionResultType]::ParameterValue, 'Record lessons learned once and needed forever, and list them')
            [CompletionResult]::new('checkpoint', 'checkpoint', [CompletionResultType]::ParameterValue, 'Record where you stand (working on, decisions, blockers), or show each agent''s latest')
            [CompletionResult]::new('snippet', 'snippet', [CompletionResultType]::ParameterValue, 'Keep a piece of code or text as a snippet, with its path, lines and git blob id')
            [CompletionResult]::new('search', 'search', [CompletionResultType]::ParameterValue, 'Find the packages most relevant to a query')
            [CompletionResult]::new('index', 'index', [CompletionResultType]::ParameterValue, 'Build the search indexes and the vectors of search by meaning now')
            [CompletionResult]::new('orient', 'orient', [CompletionResultType]::ParameterValue, 'Brief a new session: latest handoff, recent work, open questions, active facts')
            [CompletionResult]::new('orchestrate', 'orchestrate', [CompletionResultType]::ParameterValue, 'Assemble a digest of recent work for an agent to synthesise (relay runs no LLM)')
            [CompletionResult]::new('review', 'review', [CompletionResultType]::ParameterValue, 'Put packages through review: flag, approve, request changes, list')
            [CompletionResult]::new('retract', 'retract', [CompletionResultType]::ParameterValue, 'Take back a package or a fact: reads stop showing it, its history keeps it')
            [CompletionResult]::new('purge', 'purge', [CompletionResultType]::ParameterValue, 'Remove expired or retracted records from the logs (the one command that rewrites them)')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Summarise the store: projects, package counts, reviews, facts, sessions, size, warnings')
            [CompletionResult]::new('export', 'export', [CompletionResultType]::ParameterValue, 'Back up projects as plain wire records (offline, restorable anywhere)')
            [CompletionResult]::new('import', 'import', [CompletionResultType]::ParameterValue, 'Restore records: a backup folder, an NDJSON stream, or another store''s .relay/ folder')
            [CompletionResult]::new('verify', 'verify', [CompletionResultType]::ParameterValue, 'Check every line of the store; with --fix, repair what is safe')
            [CompletionResult]::new('doctor', 'doctor', [CompletionResultType]::ParameterValue, 'Check the whole setup end to end, and say how to fix what is wrong')
            [CompletionResult]::new('resolve', 'resolve', [CompletionResultType]::ParameterValue, 'Finish a git merge that left store files unmerged (an octopus merge)')
            [CompletionResult]::new('merge', 'merge', [CompletionResultType]::ParameterValue, 'Merge several branches at once, keeping every side''s store records')
            [CompletionResult]::new('keys', 'keys', [CompletionResultType]::ParameterValue, 'Make signing keys and list who may sign (.relay/allowed_signers)')
            [CompletionResult]::new('hook', 'hook', [CompletionResultType]::ParameterValue, 'Hook relay into git and coding agents (Claude Code, Codex, Gemini CLI, Cursor, OpenCode)')
            [CompletionResult]::new('scan', 'scan', [CompletionResultType]::ParameterValue, 'Look for credentials in the store: every line, every version')
            [CompletionResult]::new('conformance', 'conformance', [CompletionResultType]::ParameterValue, 'Print the conformance descriptor (§11.5), or check a server''s conformance (--check URL)')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('onboard', 'onboard', [CompletionResultType]::ParameterValue, 'Print the block that teaches coding agents to use relay (for AGENTS.md, CLAUDE.md)')
            [CompletionResult]::new('mcp', 'mcp', [CompletionResultType]::ParameterValue, 'Serve relay to AI agents over the Model Context Protocol (MCP), on stdin and stdout')
            [CompletionResult]::new('watch', 'watch', [CompletionResultType]::ParameterValue, 'Print records as they are appended to the store, until interrupted')
            [CompletionResult]::new('serve', 'serve', [CompletionResultType]::ParameterValue, 'Serve the store over HTTP: the Agentic Protocol''s HTTP mapping (§9.1), with bearer tokens')
            [CompletionResult]::new('token', 'token', [CompletionResultType]::ParameterValue, 'Make, list, narrow and revoke the bearer tokens of `relay serve`')
            [CompletionResult]::new('ui', 'ui', [CompletionResultType]::ParameterValue, 'Open the web console: timeline, search, facts, the review queue and orient, in a browser')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'relay;help;init' {
            break
        }
        'relay;help;deposit' {
            break
        }
        'relay;help;pull' {
            break
        }
        'relay;help;projects' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List every project (NDJSON of project records with --json)')
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Create a project')
            [CompletionResult]::new('info', 'info', [CompletionResultType]::ParameterValue, 'Show one project and how many packages it holds')
            [CompletionResult]::new('rename', 'rename', [CompletionResultType]::ParameterValue, 'Give a project a new display name (its id never changes)')
            [CompletionResult]::new('archive', 'archive', [CompletionResultType]::ParameterValue, 'Archive a project: it stays readable, but refuses deposits')
            [CompletionResult]::new('unarchive', 'unarchive', [CompletionResultType]::ParameterValue, 'Undo an archive')
            break
        }
        'relay;help;projects;list' {
            break
        }
        'relay;help;projects;create' {
            break
        }
        'relay;help;projects;info' {
            break
        }
        'relay;help;projects;rename' {
            break
        }
        'relay;help;projects;archive' {
            break
        }
        'relay;help;projects;unarchive' {
            break
        }
        'relay;help;facts' {
            [CompletionResult]::new('assert', 'assert', [CompletionResultType]::ParameterValue, 'Record a value, superseding the current one (a no-op only if the value, confidence, source, tags and start are all already current)')
            [CompletionResult]::new('invalidate', 'invalidate', [CompletionResultType]::ParameterValue, 'End the current fact(s) of a key without a replacement; prints how many ended')
            [CompletionResult]::new('get', 'get', [CompletionResultType]::ParameterValue, 'The current value of a key, or the one valid at --at (exit 1 if none)')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'Current facts (one per subject and predicate), filtered')
            [CompletionResult]::new('history', 'history', [CompletionResultType]::ParameterValue, 'Every value a key has had, oldest first')
            break
        }
        'relay;help;facts;assert' {
            break
        }
        'relay;help;facts;invalidate' {
            break
        }
        'relay;help;facts;get' {
            break
        }
        'relay;help;facts;list' {
            break
        }
        'relay;help;facts;history' {
            break
        }
        'relay;help;session' {
            [CompletionResult]::new('start', 'start', [CompletionResultType]::ParameterValue, 'Start a session and make it current')
            [CompletionResult]::new('end', 'end', [CompletionResultType]::ParameterValue, 'End a session (default: the current one) and record its packages')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'The current session: RELAY_SESSION, else this clone''s')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'Sessions of the project, oldest first')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'A session with the packages deposited in it, their decisions and open questions')
            break
        }
        'relay;help;session;start' {
            break
        }
        'relay;help;session;end' {
            break
        }
        'relay;help;session;status' {
            break
        }
        'relay;help;session;list' {
            break
        }
        'relay;help;session;show' {
            break
        }
        'relay;help;lesson' {
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Record a lesson; prints its id and hash like `relay deposit`')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'The project''s lessons, most severe first, then newest')
            break
        }
        'relay;help;lesson;add' {
            break
        }
        'relay;help;lesson;list' {
            break
        }
        'relay;help;checkpoint' {
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Each actor''s latest checkpoint in the project (or ACTOR''s), newest first')
            break
        }
        'relay;help;checkpoint;show' {
            break
        }
        'relay;help;snippet' {
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Store lines START..=END of FILE (1-based; the whole file without a range)')
            break
        }
        'relay;help;snippet;add' {
            break
        }
        'relay;help;search' {
            break
        }
        'relay;help;index' {
            break
        }
        'relay;help;orient' {
            break
        }
        'relay;help;orchestrate' {
            break
        }
        'relay;help;review' {
            [CompletionResult]::new('flag', 'flag', [CompletionResultType]::ParameterValue, 'Ask for review: the package becomes awaiting_review (from draft, awaiting_review or revision_requested)')
            [CompletionResult]::new('approve', 'approve', [CompletionResultType]::ParameterValue, 'Approve: the package becomes complete (from any status but complete)')
            [CompletionResult]::new('request-changes', 'request-changes', [CompletionResultType]::ParameterValue, 'Send it back: awaiting_review becomes revision_requested')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'Packages awaiting review, oldest request first, with who flagged them and why')
            break
        }
        'relay;help;review;flag' {
            break
        }
        'relay;help;review;approve' {
            break
        }
        'relay;help;review;request-changes' {
            break
        }
        'relay;help;review;list' {
            break
        }
        'relay;help;retract' {
            break
        }
        'relay;help;purge' {
            break
        }
        'relay;help;status' {
            break
        }
        'relay;help;export' {
            break
        }
        'relay;help;import' {
            break
        }
        'relay;help;verify' {
            break
        }
        'relay;help;doctor' {
            break
        }
        'relay;help;resolve' {
            break
        }
        'relay;help;merge' {
            break
        }
        'relay;help;keys' {
            [CompletionResult]::new('generate', 'generate', [CompletionResultType]::ParameterValue, 'Make an Ed25519 key (mode 0600, and KEY.pub) and print its allowed_signers line')
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Allow a key you already have: append its allowed_signers line for you')
            [CompletionResult]::new('rotate', 'rotate', [CompletionResultType]::ParameterValue, 'Move to a new signing key: a key rotation record signed with the current key, and the new key''s line in .relay/allowed_signers')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'The entries of .relay/allowed_signers: principals, key type, fingerprint, options')
            break
        }
        'relay;help;keys;generate' {
            break
        }
        'relay;help;keys;add' {
            break
        }
        'relay;help;keys;rotate' {
            break
        }
        'relay;help;keys;list' {
            break
        }
        'relay;help;hook' {
            [CompletionResult]::new('install', 'install', [CompletionResultType]::ParameterValue, 'Install hooks (installing twice changes nothing)')
            [CompletionResult]::new('uninstall', 'uninstall', [CompletionResultType]::ParameterValue, 'Remove relay''s hooks and restore what was there before')
            [CompletionResult]::new('flush', 'flush', [CompletionResultType]::ParameterValue, 'Move what relay''s hooks queued into the store''s logs (the pre-commit hook runs it)')
            [CompletionResult]::new('reconcile', 'reconcile', [CompletionResultType]::ParameterValue, 'Put back into the queue what a git move took from the store (post-merge and post-rewrite run it)')
            [CompletionResult]::new('merge-driver', 'merge-driver', [CompletionResultType]::ParameterValue, 'Merge two versions of a store log (git runs it: `merge.relay.driver`)')
            [CompletionResult]::new('run', 'run', [CompletionResultType]::ParameterValue, 'Handle one agent event (what the installed agent hooks run)')
            break
        }
        'relay;help;hook;install' {
            break
        }
        'relay;help;hook;uninstall' {
            break
        }
        'relay;help;hook;flush' {
            break
        }
        'relay;help;hook;reconcile' {
            break
        }
        'relay;help;hook;merge-driver' {
            break
        }
        'relay;help;hook;run' {
            break
        }
        'relay;help;scan' {
            break
        }
        'relay;help;conformance' {
            break
        }
        'relay;help;completions' {
            break
        }
        'relay;help;onboard' {
            break
        }
        'relay;help;mcp' {
            break
        }
        'relay;help;watch' {
            break
        }
        'relay;help;serve' {
            break
        }
        'relay;help;token' {
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Make a token and print it (once: only its hash is kept)')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'Every token, revoked ones too (no secrets: ids, actors, scopes, times)')
            [CompletionResult]::new('narrow', 'narrow', [CompletionResultType]::ParameterValue, 'Narrow a token: keep only some of its projects, or make it read-only')
            [CompletionResult]::new('revoke', 'revoke', [CompletionResultType]::ParameterValue, 'Revoke a token: requests with it are refused from now on, its open streams end')
            break
        }
        'relay;help;token;create' {
            break
        }
        'relay;help;token;list' {
            break
        }
        'relay;help;token;narrow' {
            break
        }
        'relay;help;token;revoke' {
            break
        }
        'relay;help;ui' {
            break
        }
        'relay;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
