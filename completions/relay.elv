
use builtin;
use str;

set edit:completion:arg-completer[relay] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'relay'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'relay'= {
            cand --store 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here'
            cand --project 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml'
            cand --color 'When to color human output'
            cand --sign-with 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)'
            cand --json 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
            cand -q 'Print only results: no notes or warnings on stderr'
            cand --quiet 'Print only results: no notes or warnings on stderr'
            cand --redact-secrets 'For this command, store credentials found in the input as <REDACTED:rule-id>'
            cand --allow-secrets 'For this command, store credentials found in the input as they are'
            cand --sign 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand init 'Create a relay store (.relay/) in this folder, with a first project'
            cand deposit 'Record a context package: what you did, decided, left open, and who should pick it up'
            cand pull 'Read packages: one in full by id, the newest ones, or the most relevant to a query'
            cand projects 'Manage the store''s projects'
            cand facts 'Track what is true now, and what was true then'
            cand session 'Group work into sessions with memorable callsigns (e.g. coral-heron)'
            cand lesson 'Record lessons learned once and needed forever, and list them'
            cand checkpoint 'Record where you stand (working on, decisions, blockers), or show each agent''s latest'
            cand snippet 'Keep a piece of code or text as a snippet, with its path, lines and git blob id'
            cand search 'Find the packages most relevant to a query'
            cand index 'Build the search indexes and the vectors of search by meaning now'
            cand orient 'Brief a new session: latest handoff, recent work, open questions, active facts'
            cand orchestrate 'Assemble a digest of recent work for an agent to synthesise (relay runs no LLM)'
            cand review 'Put packages through review: flag, approve, request changes, list'
            cand retract 'Take back a package or a fact: reads stop showing it, its history keeps it'
            cand purge 'Remove expired or retracted records from the logs (the one command that rewrites them)'
            cand status 'Summarise the store: projects, package counts, reviews, facts, sessions, size, warnings'
            cand export 'Back up projects as plain wire records (offline, restorable anywhere)'
            cand import 'Restore records: a backup folder, an NDJSON stream, or another store''s .relay/ folder'
            cand verify 'Check every line of the store; with --fix, repair what is safe'
            cand doctor 'Check the whole setup end to end, and say how to fix what is wrong'
            cand resolve 'Finish a git merge that left store files unmerged (an octopus merge)'
            cand merge 'Merge several branches at once, keeping every side''s store records'
            cand keys 'Make signing keys and list who may sign (.relay/allowed_signers)'
            cand hook 'Hook relay into git and coding agents (Claude Code, Codex, Gemini CLI, Cursor, OpenCode)'
            cand scan 'Look for credentials in the store: every line, every version'
            cand conformance 'Print the conformance descriptor (§11.5), or check a server''s conformance (--check URL)'
            cand completions 'Print a shell completion script'
            cand onboard 'Print the block that teaches coding agents to use relay (for AGENTS.md, CLAUDE.md)'
            cand mcp 'Serve relay to AI agents over the Model Context Protocol (MCP), on stdin and stdout'
            cand watch 'Print records as they are appended to the store, until interrupted'
            cand serve 'Serve the store over HTTP: the Agentic Protocol''s HTTP mapping (§9.1), with bearer tokens'
            cand token 'Make, list, narrow and revoke the bearer tokens of `relay serve`'
            cand ui 'Open the web console: timeline, search, facts, the review queue and orient, in a browser'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'relay;init'= {
            cand --name 'A display name for the project'
            cand --sign-with 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)'
            cand --store 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here'
            cand --project 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml'
            cand --color 'When to color human output'
            cand --local 'Make a private store that git never sees (listed in .git/info/exclude, not committed)'
            cand --redact-secrets 'For this command, store credentials found in the input as <REDACTED:rule-id>'
            cand --allow-secrets 'For this command, store credentials found in the input as they are'
            cand --sign 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
            cand --json 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
            cand -q 'Print only results: no notes or warnings on stderr'
            cand --quiet 'Print only results: no notes or warnings on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'relay;deposit'= {
            cand --title 'One-line summary (1–200 characters)'
            cand --description 'Longer prose'
            cand --type 'Package type: standard, milestone, decision, handoff, auto_deposit, analysis, question, orchestrator_report, or an x-* extension'
            cand --status 'Lifecycle status (default: complete)'
            cand --review 'Who must review it (default: none)'
            cand --tag 'A label (repeatable)'
            cand --decision 'A decision made (repeatable)'
            cand --question 'An open question (repeatable)'
            cand --handoff 'Guidance for whoever picks this up next'
            cand --next-actor 'Who should pick it up next'
            cand --deliverable 'A file, folder or URL produced (repeatable); files get their sha256 and size recorded'
            cand --parent 'The package this one corrects or extends'
            cand --significance '1 (noise) to 10 (critical); default 5'
            cand --topic 'Subject area, e.g. retrieval'
            cand --artifact-type 'A narrower type hint than --type'
            cand --content-md 'A Markdown body, read from FILE or - (stdin)'
            cand --ext 'An x-* extension field (repeatable); VALUE is parsed as JSON when it parses, else a string'
            cand --from 'Read a whole or partial wire package (JSON) from FILE or - (stdin)'
            cand --id 'Use this package_id instead of a new one (makes retries idempotent)'
            cand --expires-at 'Hide the record from reads from TIME on (RFC 3339 or a date; it must be in the future)'
            cand --ttl 'Hide the record from reads once this span has passed: 90m, 12h, 30d, 2w'
            cand --actor 'Who is acting; default: [actor] id in config, then git user.email, then $USER'
            cand --actor-type 'What kind of actor'
            cand --session 'The session (id or callsign) to record; default: this clone''s current session'
            cand --sign-with 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)'
            cand --store 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here'
            cand --project 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml'
            cand --color 'When to color human output'
            cand --strict 'Take the package as the Agentic Protocol does (§8.1), as `relay serve` does: every required member given (package_id, project_id, relay_version, title, status, package_type, review_type, created_at, created_by), usually with --from; relay fills nothing in, and a package missing one is refused (invalid_schema)'
            cand --auto 'For hooks: record the new commit, or else the uncommitted changes, or nothing if nothing is new. Never fails: problems go to stderr and the exit code is 0'
            cand --queue 'With --auto, for git hooks: write into this clone''s queue (.relay/local/pending/, which git never sees) instead of the tracked logs; reads see it at once, and the pre-commit hook (`relay hook flush --stage`) moves it into the store with the next commit. A local store, or one outside git, is written directly'
            cand --redact-secrets 'For this command, store credentials found in the input as <REDACTED:rule-id>'
            cand --allow-secrets 'For this command, store credentials found in the input as they are'
            cand --sign 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
            cand --json 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
            cand -q 'Print only results: no notes or warnings on stderr'
            cand --quiet 'Print only results: no notes or warnings on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'relay;pull'= {
            cand --latest 'List the N newest packages'
            cand --relevant 'Rank packages by relevance to QUERY (words and "quoted phrases")'
            cand --limit 'How many packages: the newest (as --latest N) or the best matches of --relevant'
            cand --type 'Only this package type (repeatable: any of them)'
            cand --tag 'Only packages with this tag (repeatable: all of them)'
            cand --created-by 'Only packages created by this actor id (`created_by` on MCP and HTTP)'
            cand --actor 'Only packages created by this actor id (`created_by` on MCP and HTTP)'
            cand --status 'Only packages in this status'
            cand --since 'Only packages created at or after TIME'
            cand --until 'Only packages created before TIME'
            cand --as-of 'Read the store as it stood at TIME: packages created by then, at the review version current then; retractions and expiry as of then'
            cand --mode 'keyword (BM25 over the words), semantic (similarity of meaning, with an embedding model) or hybrid (both lists fused by rank). Default: hybrid when a model is configured, else keyword (`search` on MCP and HTTP)'
            cand --search 'keyword (BM25 over the words), semantic (similarity of meaning, with an embedding model) or hybrid (both lists fused by rank). Default: hybrid when a model is configured, else keyword (`search` on MCP and HTTP)'
            cand --model 'The embedding model''s folder (a Model2Vec static model: config.json, model.safetensors, tokenizer.json; with query/, the transformer that embeds queries, as scripts/fetch-model.sh makes it); else `[search] model` in .relay/config.toml'
            cand --sign-with 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)'
            cand --store 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here'
            cand --project 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml'
            cand --color 'When to color human output'
            cand --history 'With PACKAGE_ID: every stored version, with its transition (who, when, note)'
            cand --all-projects 'Cover every project, not just the selected one'
            cand --include-expired 'Show packages whose x-expires-at has passed (hidden otherwise)'
            cand --include-retracted 'Show packages that `relay retract` has retracted (hidden otherwise)'
            cand --redact-secrets 'For this command, store credentials found in the input as <REDACTED:rule-id>'
            cand --allow-secrets 'For this command, store credentials found in the input as they are'
            cand --sign 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
            cand --json 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
            cand -q 'Print only results: no notes or warnings on stderr'
            cand --quiet 'Print only results: no notes or warnings on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'relay;projects'= {
            cand --sign-with 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)'
            cand --store 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here'
            cand --project 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml'
            cand --color 'When to color human output'
            cand --redact-secrets 'For this command, store credentials found in the input as <REDACTED:rule-id>'
            cand --allow-secrets 'For this command, store credentials found in the input as they are'
            cand --sign 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
            cand --json 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
            cand -q 'Print only results: no notes or warnings on stderr'
            cand --quiet 'Print only results: no notes or warnings on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand list 'List every project (NDJSON of project records with --json)'
            cand create 'Create a project'
            cand info 'Show one project and how many packages it holds'
            cand rename 'Give a project a new display name (its id never changes)'
            cand archive 'Archive a project: it stays readable, but refuses deposits'
            cand unarchive 'Undo an archive'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'relay;projects;list'= {
            cand --sign-with 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)'
            cand --store 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here'
            cand --project 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml'
            cand --color 'When to color human output'
            cand --redact-secrets 'For this command, store credentials found in the input as <REDACTED:rule-id>'
            cand --allow-secrets 'For this command, store credentials found in the input as they are'
            cand --sign 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
            cand --json 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
            cand -q 'Print only results: no notes or warnings on stderr'
            cand --quiet 'Print only results: no notes or warnings on stderr'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'relay;projects;create'= {
            cand --name 'A display name (default: the id)'
            cand --description 'A longer description'
            cand --sign-with 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)'
            cand --store 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here'
            cand --project 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml'
            cand --color 'When to color human output'
            cand --redact-secrets 'For this command, store credentials found in the input as <REDACTED:rule-id>'
            cand --allow-secrets 'For this command, store credentials found in the input as they are'
            cand --sign 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
            cand --json 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
            cand -q 'Print only results: no notes or warnings on stderr'
            cand --quiet 'Print only results: no notes or warnings on stderr'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'relay;projects;info'= {
            cand --sign-with 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)'
            cand --store 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here'
            cand --project 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml'
            cand --color 'When to color human output'
            cand --redact-secrets 'For this command, store credentials found in the input as <REDACTED:rule-id>'
            cand --allow-secrets 'For this command, store credentials found in the input as they are'
            cand --sign 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
            cand --json 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
            cand -q 'Print only results: no notes or warnings on stderr'
            cand --quiet 'Print only results: no notes or warnings on stderr'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'relay;projects;rename'= {
            cand --sign-with 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)'
            cand --store 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here'
            cand --project 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml'
            cand --color 'When to color human output'
            cand --redact-secrets 'For this command, store credentials found in the input as <REDACTED:rule-id>'
            cand --allow-secrets 'For this command, store credentials found in the input as they are'
            cand --sign 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
            cand --json 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
            cand -q 'Print only results: no notes or warnings on stderr'
            cand --quiet 'Print only results: no notes or warnings on stderr'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'relay;projects;archive'= {
            cand --sign-with 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)'
            cand --store 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here'
            cand --project 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml'
            cand --color 'When to color human output'
            cand --redact-secrets 'For this command, store credentials found in the input as <REDACTED:rule-id>'
            cand --allow-secrets 'For this command, store credentials found in the input as they are'
            cand --sign 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
            cand --json 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
            cand -q 'Print only results: no notes or warnings on stderr'
            cand --quiet 'Print only results: no notes or warnings on stderr'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'relay;projects;unarchive'= {
            cand --sign-with 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)'
            cand --store 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here'
            cand --project 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml'
            cand --color 'When to color human output'
            cand --redact-secrets 'For this command, store credentials found in the input as <REDACTED:rule-id>'
            cand --allow-secrets 'For this command, store credentials found in the input as they are'
            cand --sign 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
            cand --json 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
            cand -q 'Print only results: no notes or warnings on stderr'
            cand --quiet 'Print only results: no notes or warnings on stderr'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'relay;projects;help'= {
            cand list 'List every project (NDJSON of project records with --json)'
            cand create 'Create a project'
            cand info 'Show one project and how many packages it holds'
            cand rename 'Give a project a new display name (its id never changes)'
            cand archive 'Archive a project: it stays readable, but refuses deposits'
            cand unarchive 'Undo an archive'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'relay;projects;help;list'= {
        }
        &'relay;projects;help;create'= {
        }
        &'relay;projects;help;info'= {
        }
        &'relay;projects;help;rename'= {
        }
        &'relay;projects;help;archive'= {
        }
        &'relay;projects;help;unarchive'= {
        }
        &'relay;projects;help;help'= {
        }
        &'relay;facts'= {
            cand --sign-with 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)'
            cand --store 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here'
            cand --project 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml'
            cand --color 'When to color human output'
            cand --redact-secrets 'For this command, store credentials found in the input as <REDACTED:rule-id>'
            cand --allow-secrets 'For this command, store credentials found in the input as they are'
            cand --sign 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
            cand --json 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
            cand -q 'Print only results: no notes or warnings on stderr'
            cand --quiet 'Print only results: no notes or warnings on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand assert 'Record a value, superseding the current one (a no-op only if the value, confidence, source, tags and start are all already current)'
            cand invalidate 'End the current fact(s) of a key without a replacement; prints how many ended'
            cand get 'The current value of a key, or the one valid at --at (exit 1 if none)'
            cand list 'Current facts (one per subject and predicate), filtered'
            cand history 'Every value a key has had, oldest first'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'relay;facts;assert'= {
            cand --source 'The package this fact comes from (its id, or the start of it); its author becomes the fact''s asserted_by'
            cand --confidence 'How sure, from 0 to 1 (default 1)'
            cand --tag 'A label (repeatable)'
            cand --valid-from 'When it became true (default: now); not before the current fact''s valid_from'
            cand --field 'An extension member the fact keeps (§12.1), KEY named x-*; VALUE is read as JSON when it parses (30, true, ["a"]), else as text (repeatable)'
            cand --expires-at 'Hide the record from reads from TIME on (RFC 3339 or a date; it must be in the future)'
            cand --ttl 'Hide the record from reads once this span has passed: 90m, 12h, 30d, 2w'
            cand --actor 'Who is acting; default: [actor] id in config, then git user.email, then $USER'
            cand --actor-type 'What kind of actor'
            cand --session 'The session (id or callsign) to record; default: this clone''s current session'
            cand --sign-with 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)'
            cand --store 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here'
            cand --project 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml'
            cand --color 'When to color human output'
            cand --redact-secrets 'For this command, store credentials found in the input as <REDACTED:rule-id>'
            cand --allow-secrets 'For this command, store credentials found in the input as they are'
            cand --sign 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
            cand --json 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
            cand -q 'Print only results: no notes or warnings on stderr'
            cand --quiet 'Print only results: no notes or warnings on stderr'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'relay;facts;invalidate'= {
            cand --sign-with 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)'
            cand --store 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here'
            cand --project 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml'
            cand --color 'When to color human output'
            cand --redact-secrets 'For this command, store credentials found in the input as <REDACTED:rule-id>'
            cand --allow-secrets 'For this command, store credentials found in the input as they are'
            cand --sign 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
            cand --json 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
            cand -q 'Print only results: no notes or warnings on stderr'
            cand --quiet 'Print only results: no notes or warnings on stderr'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'relay;facts;get'= {
            cand --at 'at'
            cand --sign-with 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)'
            cand --store 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here'
            cand --project 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml'
            cand --color 'When to color human output'
            cand --include-expired 'Show facts whose x-expires-at has passed (hidden otherwise)'
            cand --include-retracted 'Show facts that `relay retract` has retracted (hidden otherwise)'
            cand --redact-secrets 'For this command, store credentials found in the input as <REDACTED:rule-id>'
            cand --allow-secrets 'For this command, store credentials found in the input as they are'
            cand --sign 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
            cand --json 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
            cand -q 'Print only results: no notes or warnings on stderr'
            cand --quiet 'Print only results: no notes or warnings on stderr'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'relay;facts;list'= {
            cand --subject 'subject'
            cand --predicate 'predicate'
            cand --tag 'tag'
            cand --at 'The facts valid at TIME instead of now'
            cand --as-of 'The facts as the store stood at TIME: recorded by then and valid then (unlike --at, facts recorded since with an earlier valid_from are left out)'
            cand --sign-with 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)'
            cand --store 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here'
            cand --project 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml'
            cand --color 'When to color human output'
            cand --include-ended 'Every fact, ended ones included'
            cand --include-expired 'Show facts whose x-expires-at has passed (hidden otherwise)'
            cand --include-retracted 'Show facts that `relay retract` has retracted (hidden otherwise)'
            cand --redact-secrets 'For this command, store credentials found in the input as <REDACTED:rule-id>'
            cand --allow-secrets 'For this command, store credentials found in the input as they are'
            cand --sign 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
            cand --json 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
            cand -q 'Print only results: no notes or warnings on stderr'
            cand --quiet 'Print only results: no notes or warnings on stderr'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'relay;facts;history'= {
            cand --sign-with 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)'
            cand --store 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here'
            cand --project 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml'
            cand --color 'When to color human output'
            cand --include-expired 'Show facts whose x-expires-at has passed (hidden otherwise)'
            cand --include-retracted 'Show facts that `relay retract` has retracted (hidden otherwise)'
            cand --redact-secrets 'For this command, store credentials found in the input as <REDACTED:rule-id>'
            cand --allow-secrets 'For this command, store credentials found in the input as they are'
            cand --sign 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
            cand --json 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
            cand -q 'Print only results: no notes or warnings on stderr'
            cand --quiet 'Print only results: no notes or warnings on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'relay;facts;help'= {
            cand assert 'Record a value, superseding the current one (a no-op only if the value, confidence, source, tags and start are all already current)'
            cand invalidate 'End the current fact(s) of a key without a replacement; prints how many ended'
            cand get 'The current value of a key, or the one valid at --at (exit 1 if none)'
            cand list 'Current facts (one per subject and predicate), filtered'
            cand history 'Every value a key has had, oldest first'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'relay;facts;help;assert'= {
        }
        &'relay;facts;help;invalidate'= {
        }
        &'relay;facts;help;get'= {
        }
        &'relay;facts;help;list'= {
        }
        &'relay;facts;help;history'= {
        }
        &'relay;facts;help;help'= {
        }
        &'relay;session'= {
            cand --sign-with 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)'
            cand --store 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here'
            cand --project 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml'
            cand --color 'When to color human output'
            cand --redact-secrets 'For this command, store credentials found in the input as <REDACTED:rule-id>'
            cand --allow-secrets 'For this command, store credentials found in the input as they are'
            cand --sign 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
            cand --json 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
            cand -q 'Print only results: no notes or warnings on stderr'
            cand --quiet 'Print only results: no notes or warnings on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand start 'Start a session and make it current'
            cand end 'End a session (default: the current one) and record its packages'
            cand status 'The current session: RELAY_SESSION, else this clone''s'
            cand list 'Sessions of the project, oldest first'
            cand show 'A session with the packages deposited in it, their decisions and open questions'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'relay;session;start'= {
            cand --actor 'Who is acting; default: [actor] id in config, then git user.email, then $USER'
            cand --actor-type 'What kind of actor'
            cand --callsign 'Use this callsign instead of a generated one'
            cand --sign-with 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)'
            cand --store 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here'
            cand --project 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml'
            cand --color 'When to color human output'
            cand --shell 'Print only `export RELAY_SESSION=…` for eval, and leave the clone''s current session'
            cand --redact-secrets 'For this command, store credentials found in the input as <REDACTED:rule-id>'
            cand --allow-secrets 'For this command, store credentials found in the input as they are'
            cand --sign 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
            cand --json 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
            cand -q 'Print only results: no notes or warnings on stderr'
            cand --quiet 'Print only results: no notes or warnings on stderr'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'relay;session;end'= {
            cand --sign-with 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)'
            cand --store 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here'
            cand --project 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml'
            cand --color 'When to color human output'
            cand --redact-secrets 'For this command, store credentials found in the input as <REDACTED:rule-id>'
            cand --allow-secrets 'For this command, store credentials found in the input as they are'
            cand --sign 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
            cand --json 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
            cand -q 'Print only results: no notes or warnings on stderr'
            cand --quiet 'Print only results: no notes or warnings on stderr'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'relay;session;status'= {
            cand --sign-with 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)'
            cand --store 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here'
            cand --project 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml'
            cand --color 'When to color human output'
            cand --redact-secrets 'For this command, store credentials found in the input as <REDACTED:rule-id>'
            cand --allow-secrets 'For this command, store credentials found in the input as they are'
            cand --sign 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
            cand --json 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
            cand -q 'Print only results: no notes or warnings on stderr'
            cand --quiet 'Print only results: no notes or warnings on stderr'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'relay;session;list'= {
            cand --as-of 'The sessions as they were at TIME: those started by then, open if they ended since, with the packages deposited by then'
            cand --sign-with 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)'
            cand --store 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here'
            cand --project 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml'
            cand --color 'When to color human output'
            cand --active 'Only sessions that have not ended'
            cand --redact-secrets 'For this command, store credentials found in the input as <REDACTED:rule-id>'
            cand --allow-secrets 'For this command, store credentials found in the input as they are'
            cand --sign 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
            cand --json 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
            cand -q 'Print only results: no notes or warnings on stderr'
            cand --quiet 'Print only results: no notes or warnings on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'relay;session;show'= {
            cand --sign-with 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)'
            cand --store 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here'
            cand --project 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml'
            cand --color 'When to color human output'
            cand --redact-secrets 'For this command, store credentials found in the input as <REDACTED:rule-id>'
            cand --allow-secrets 'For this command, store credentials found in the input as they are'
            cand --sign 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
            cand --json 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
            cand -q 'Print only results: no notes or warnings on stderr'
            cand --quiet 'Print only results: no notes or warnings on stderr'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'relay;session;help'= {
            cand start 'Start a session and make it current'
            cand end 'End a session (default: the current one) and record its packages'
            cand status 'The current session: RELAY_SESSION, else this clone''s'
            cand list 'Sessions of the project, oldest first'
            cand show 'A session with the packages deposited in it, their decisions and open questions'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'relay;session;help;start'= {
        }
        &'relay;session;help;end'= {
        }
        &'relay;session;help;status'= {
        }
        &'relay;session;help;list'= {
        }
        &'relay;session;help;show'= {
        }
        &'relay;session;help;help'= {
        }
        &'relay;lesson'= {
            cand --sign-with 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)'
            cand --store 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here'
            cand --project 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml'
            cand --color 'When to color human output'
            cand --redact-secrets 'For this command, store credentials found in the input as <REDACTED:rule-id>'
            cand --allow-secrets 'For this command, store credentials found in the input as they are'
            cand --sign 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
            cand --json 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
            cand -q 'Print only results: no notes or warnings on stderr'
            cand --quiet 'Print only results: no notes or warnings on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand add 'Record a lesson; prints its id and hash like `relay deposit`'
            cand list 'The project''s lessons, most severe first, then newest'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'relay;lesson;add'= {
            cand --content 'The lesson itself, or - to read it from stdin'
            cand --severity 'How much it matters: info (default), warning or critical'
            cand --tag 'A tag (repeatable)'
            cand --actor 'Who is acting; default: [actor] id in config, then git user.email, then $USER'
            cand --actor-type 'What kind of actor'
            cand --session 'The session (id or callsign) to record; default: this clone''s current session'
            cand --sign-with 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)'
            cand --store 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here'
            cand --project 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml'
            cand --color 'When to color human output'
            cand --redact-secrets 'For this command, store credentials found in the input as <REDACTED:rule-id>'
            cand --allow-secrets 'For this command, store credentials found in the input as they are'
            cand --sign 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
            cand --json 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
            cand -q 'Print only results: no notes or warnings on stderr'
            cand --quiet 'Print only results: no notes or warnings on stderr'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'relay;lesson;list'= {
            cand --severity 'Only lessons of this severity: info, warning or critical'
            cand --tag 'Only lessons with this tag (repeatable: all of them)'
            cand --limit 'At most N lessons'
            cand --as-of 'The lessons as the store held them at TIME'
            cand --sign-with 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)'
            cand --store 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here'
            cand --project 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml'
            cand --color 'When to color human output'
            cand --all-projects 'Cover every project, not just the selected one'
            cand --redact-secrets 'For this command, store credentials found in the input as <REDACTED:rule-id>'
            cand --allow-secrets 'For this command, store credentials found in the input as they are'
            cand --sign 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
            cand --json 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
            cand -q 'Print only results: no notes or warnings on stderr'
            cand --quiet 'Print only results: no notes or warnings on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'relay;lesson;help'= {
            cand add 'Record a lesson; prints its id and hash like `relay deposit`'
            cand list 'The project''s lessons, most severe first, then newest'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'relay;lesson;help;add'= {
        }
        &'relay;lesson;help;list'= {
        }
        &'relay;lesson;help;help'= {
        }
        &'relay;checkpoint'= {
            cand --working-on 'What you are working on now'
            cand --decision 'A decision made (repeatable)'
            cand --blocker 'What blocks you (repeatable)'
            cand --artifact 'A file or other artifact you are working with (repeatable)'
            cand --flag 'IDLE, IN_PROGRESS or BLOCKED (any case)'
            cand --actor 'Who is acting; default: [actor] id in config, then git user.email, then $USER'
            cand --actor-type 'What kind of actor'
            cand --session 'The session (id or callsign) to record; default: this clone''s current session'
            cand --sign-with 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)'
            cand --store 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here'
            cand --project 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml'
            cand --color 'When to color human output'
            cand --redact-secrets 'For this command, store credentials found in the input as <REDACTED:rule-id>'
            cand --allow-secrets 'For this command, store credentials found in the input as they are'
            cand --sign 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
            cand --json 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
            cand -q 'Print only results: no notes or warnings on stderr'
            cand --quiet 'Print only results: no notes or warnings on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand show 'Each actor''s latest checkpoint in the project (or ACTOR''s), newest first'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'relay;checkpoint;show'= {
            cand --as-of 'Where each actor stood at TIME (checkpoints recorded by then)'
            cand --sign-with 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)'
            cand --store 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here'
            cand --project 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml'
            cand --color 'When to color human output'
            cand --redact-secrets 'For this command, store credentials found in the input as <REDACTED:rule-id>'
            cand --allow-secrets 'For this command, store credentials found in the input as they are'
            cand --sign 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
            cand --json 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
            cand -q 'Print only results: no notes or warnings on stderr'
            cand --quiet 'Print only results: no notes or warnings on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'relay;checkpoint;help'= {
            cand show 'Each actor''s latest checkpoint in the project (or ACTOR''s), newest first'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'relay;checkpoint;help;show'= {
        }
        &'relay;checkpoint;help;help'= {
        }
        &'relay;snippet'= {
            cand --sign-with 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)'
            cand --store 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here'
            cand --project 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml'
            cand --color 'When to color human output'
            cand --redact-secrets 'For this command, store credentials found in the input as <REDACTED:rule-id>'
            cand --allow-secrets 'For this command, store credentials found in the input as they are'
            cand --sign 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
            cand --json 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
            cand -q 'Print only results: no notes or warnings on stderr'
            cand --quiet 'Print only results: no notes or warnings on stderr'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand add 'Store lines START..=END of FILE (1-based; the whole file without a range)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'relay;snippet;add'= {
            cand --language 'The language of the text, e.g. rust'
            cand --note 'What the snippet shows or why it matters'
            cand --actor 'Who is acting; default: [actor] id in config, then git user.email, then $USER'
            cand --actor-type 'What kind of actor'
            cand --session 'The session (id or callsign) to record; default: this clone''s current session'
            cand --sign-with 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)'
            cand --store 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here'
            cand --project 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml'
            cand --color 'When to color human output'
            cand --redact-secrets 'For this command, store credentials found in the input as <REDACTED:rule-id>'
            cand --allow-secrets 'For this command, store credentials found in the input as they are'
            cand --sign 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
            cand --json 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
            cand -q 'Print only results: no notes or warnings on stderr'
            cand --quiet 'Print only results: no notes or warnings on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'relay;snippet;help'= {
            cand add 'Store lines START..=END of FILE (1-based; the whole file without a range)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'relay;snippet;help;add'= {
        }
        &'relay;snippet;help;help'= {
        }
        &'relay;search'= {
            cand --limit 'How many results'
            cand --type 'Only this package type (repeatable: any of them)'
            cand --tag 'Only packages with this tag (repeatable: all of them)'
            cand --created-by 'Only packages created by this actor id (`created_by` on MCP and HTTP)'
            cand --actor 'Only packages created by this actor id (`created_by` on MCP and HTTP)'
            cand --status 'Only packages in this status'
            cand --since 'Only packages created at or after TIME'
            cand --until 'Only packages created before TIME'
            cand --as-of 'Read the store as it stood at TIME: packages created by then, at the review version current then; retractions and expiry as of then'
            cand --mode 'keyword (BM25 over the words), semantic (similarity of meaning, with an embedding model) or hybrid (both lists fused by rank). Default: hybrid when a model is configured, else keyword (`search` on MCP and HTTP)'
            cand --search 'keyword (BM25 over the words), semantic (similarity of meaning, with an embedding model) or hybrid (both lists fused by rank). Default: hybrid when a model is configured, else keyword (`search` on MCP and HTTP)'
            cand --model 'The embedding model''s folder (a Model2Vec static model: config.json, model.safetensors, tokenizer.json; with query/, the transformer that embeds queries, as scripts/fetch-model.sh makes it); else `[search] model` in .relay/config.toml'
            cand --sign-with 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)'
            cand --store 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here'
            cand --project 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml'
            cand --color 'When to color human output'
            cand --explain 'Show why each result ranked where it did (its place in each list, its similarity)'
            cand --all-projects 'Cover every project, not just the selected one'
            cand --include-expired 'Show packages whose x-expires-at has passed (hidden otherwise)'
            cand --include-retracted 'Show packages that `relay retract` has retracted (hidden otherwise)'
            cand --redact-secrets 'For this command, store credentials found in the input as <REDACTED:rule-id>'
            cand --allow-secrets 'For this command, store credentials found in the input as they are'
            cand --sign 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
            cand --json 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
            cand -q 'Print only results: no notes or warnings on stderr'
            cand --quiet 'Print only results: no notes or warnings on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'relay;index'= {
            cand --model 'The embedding model''s folder (see `relay search --help`); else `[search] model` in .relay/config.toml'
            cand --sign-with 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)'
            cand --store 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here'
            cand --project 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml'
            cand --color 'When to color human output'
            cand --background 'Build the vectors quietly and leave a build under way to itself: how a search starts this command in the background'
            cand --redact-secrets 'For this command, store credentials found in the input as <REDACTED:rule-id>'
            cand --allow-secrets 'For this command, store credentials found in the input as they are'
            cand --sign 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
            cand --json 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
            cand -q 'Print only results: no notes or warnings on stderr'
            cand --quiet 'Print only results: no notes or warnings on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'relay;orient'= {
            cand --window-days 'How many days back to look'
            cand --limit 'At most N recent packages, the newest (open questions come from these)'
            cand --as-of 'The briefing as it would have been at TIME: the window ends then, and it holds what the store held then; the same bytes however often it is asked for'
            cand --max-chars 'Fit the briefing in N characters (Unicode scalar values), dropping the least important records first; a record is shown whole or not at all'
            cand --max-tokens 'Fit the briefing in about N tokens, estimated as 4 characters each: the same as --max-chars 4×N'
            cand --sign-with 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)'
            cand --store 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here'
            cand --project 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml'
            cand --color 'When to color human output'
            cand --md 'Markdown (the default)'
            cand --redact-secrets 'For this command, store credentials found in the input as <REDACTED:rule-id>'
            cand --allow-secrets 'For this command, store credentials found in the input as they are'
            cand --sign 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
            cand --json 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
            cand -q 'Print only results: no notes or warnings on stderr'
            cand --quiet 'Print only results: no notes or warnings on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'relay;orchestrate'= {
            cand --focus 'A topic: pulls the packages most relevant to it'
            cand --snippets 'How many relevant packages to pull for --focus'
            cand --window-days 'How many days back the summary looks'
            cand --as-of 'The digest as it would have been at TIME: the window ends then, and it holds what the store held then; the same bytes however often it is asked for'
            cand --max-chars 'Fit the briefing in N characters (Unicode scalar values), dropping the least important records first; a record is shown whole or not at all'
            cand --max-tokens 'Fit the briefing in about N tokens, estimated as 4 characters each: the same as --max-chars 4×N'
            cand --mode 'keyword (BM25 over the words), semantic (similarity of meaning, with an embedding model) or hybrid (both lists fused by rank). Default: hybrid when a model is configured, else keyword (`search` on MCP and HTTP)'
            cand --search 'keyword (BM25 over the words), semantic (similarity of meaning, with an embedding model) or hybrid (both lists fused by rank). Default: hybrid when a model is configured, else keyword (`search` on MCP and HTTP)'
            cand --model 'The embedding model''s folder (a Model2Vec static model: config.json, model.safetensors, tokenizer.json; with query/, the transformer that embeds queries, as scripts/fetch-model.sh makes it); else `[search] model` in .relay/config.toml'
            cand --sign-with 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)'
            cand --store 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here'
            cand --project 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml'
            cand --color 'When to color human output'
            cand --all-projects 'Every project (global mode), not just the selected one'
            cand --include-archived 'Global mode: include archived projects'
            cand --md 'Markdown (the default)'
            cand --redact-secrets 'For this command, store credentials found in the input as <REDACTED:rule-id>'
            cand --allow-secrets 'For this command, store credentials found in the input as they are'
            cand --sign 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
            cand --json 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
            cand -q 'Print only results: no notes or warnings on stderr'
            cand --quiet 'Print only results: no notes or warnings on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'relay;review'= {
            cand --sign-with 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)'
            cand --store 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here'
            cand --project 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml'
            cand --color 'When to color human output'
            cand --redact-secrets 'For this command, store credentials found in the input as <REDACTED:rule-id>'
            cand --allow-secrets 'For this command, store credentials found in the input as they are'
            cand --sign 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
            cand --json 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
            cand -q 'Print only results: no notes or warnings on stderr'
            cand --quiet 'Print only results: no notes or warnings on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand flag 'Ask for review: the package becomes awaiting_review (from draft, awaiting_review or revision_requested)'
            cand approve 'Approve: the package becomes complete (from any status but complete)'
            cand request-changes 'Send it back: awaiting_review becomes revision_requested'
            cand list 'Packages awaiting review, oldest request first, with who flagged them and why'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'relay;review;flag'= {
            cand --review-type 'Who reviews it, as MCP and HTTP name it: human (as --human) or agent (as --agent)'
            cand --note 'What to look at'
            cand --actor 'Who is acting; default: [actor] id in config, then git user.email, then $USER'
            cand --actor-type 'What kind of actor'
            cand --session 'The session (id or callsign) to record; default: this clone''s current session'
            cand --sign-with 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)'
            cand --store 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here'
            cand --project 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml'
            cand --color 'When to color human output'
            cand --human 'A person must review it'
            cand --agent 'An agent may review it'
            cand --redact-secrets 'For this command, store credentials found in the input as <REDACTED:rule-id>'
            cand --allow-secrets 'For this command, store credentials found in the input as they are'
            cand --sign 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
            cand --json 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
            cand -q 'Print only results: no notes or warnings on stderr'
            cand --quiet 'Print only results: no notes or warnings on stderr'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'relay;review;approve'= {
            cand --note 'note'
            cand --actor 'Who is acting; default: [actor] id in config, then git user.email, then $USER'
            cand --actor-type 'What kind of actor'
            cand --session 'The session (id or callsign) to record; default: this clone''s current session'
            cand --sign-with 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)'
            cand --store 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here'
            cand --project 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml'
            cand --color 'When to color human output'
            cand --redact-secrets 'For this command, store credentials found in the input as <REDACTED:rule-id>'
            cand --allow-secrets 'For this command, store credentials found in the input as they are'
            cand --sign 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
            cand --json 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
            cand -q 'Print only results: no notes or warnings on stderr'
            cand --quiet 'Print only results: no notes or warnings on stderr'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'relay;review;request-changes'= {
            cand --note 'What must change (required)'
            cand --actor 'Who is acting; default: [actor] id in config, then git user.email, then $USER'
            cand --actor-type 'What kind of actor'
            cand --session 'The session (id or callsign) to record; default: this clone''s current session'
            cand --sign-with 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)'
            cand --store 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here'
            cand --project 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml'
            cand --color 'When to color human output'
            cand --redact-secrets 'For this command, store credentials found in the input as <REDACTED:rule-id>'
            cand --allow-secrets 'For this command, store credentials found in the input as they are'
            cand --sign 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
            cand --json 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
            cand -q 'Print only results: no notes or warnings on stderr'
            cand --quiet 'Print only results: no notes or warnings on stderr'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'relay;review;list'= {
            cand --review-type 'Who reviews it, as MCP and HTTP name it: human (as --human) or agent (as --agent)'
            cand --sign-with 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)'
            cand --store 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here'
            cand --project 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml'
            cand --color 'When to color human output'
            cand --human 'A person must review it'
            cand --agent 'An agent may review it'
            cand --all-projects 'Every project, not just the selected one'
            cand --redact-secrets 'For this command, store credentials found in the input as <REDACTED:rule-id>'
            cand --allow-secrets 'For this command, store credentials found in the input as they are'
            cand --sign 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
            cand --json 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
            cand -q 'Print only results: no notes or warnings on stderr'
            cand --quiet 'Print only results: no notes or warnings on stderr'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'relay;review;help'= {
            cand flag 'Ask for review: the package becomes awaiting_review (from draft, awaiting_review or revision_requested)'
            cand approve 'Approve: the package becomes complete (from any status but complete)'
            cand request-changes 'Send it back: awaiting_review becomes revision_requested'
            cand list 'Packages awaiting review, oldest request first, with who flagged them and why'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'relay;review;help;flag'= {
        }
        &'relay;review;help;approve'= {
        }
        &'relay;review;help;request-changes'= {
        }
        &'relay;review;help;list'= {
        }
        &'relay;review;help;help'= {
        }
        &'relay;retract'= {
            cand --reason 'Why: kept with the retraction and shown in the record''s history'
            cand --actor 'Who is acting; default: [actor] id in config, then git user.email, then $USER'
            cand --actor-type 'What kind of actor'
            cand --session 'The session (id or callsign) to record; default: this clone''s current session'
            cand --sign-with 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)'
            cand --store 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here'
            cand --project 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml'
            cand --color 'When to color human output'
            cand --redact-secrets 'For this command, store credentials found in the input as <REDACTED:rule-id>'
            cand --allow-secrets 'For this command, store credentials found in the input as they are'
            cand --sign 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
            cand --json 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
            cand -q 'Print only results: no notes or warnings on stderr'
            cand --quiet 'Print only results: no notes or warnings on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'relay;purge'= {
            cand --sign-with 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)'
            cand --store 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here'
            cand --project 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml'
            cand --color 'When to color human output'
            cand --expired 'Remove records whose x-expires-at has passed'
            cand --retracted 'Remove records that `relay retract` retracted'
            cand --dry-run 'Say what would be removed; change nothing'
            cand --no-backup 'Do not keep the old files under .relay/local/purged/'
            cand --all-projects 'Every project, not just the selected one'
            cand --redact-secrets 'For this command, store credentials found in the input as <REDACTED:rule-id>'
            cand --allow-secrets 'For this command, store credentials found in the input as they are'
            cand --sign 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
            cand --json 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
            cand -q 'Print only results: no notes or warnings on stderr'
            cand --quiet 'Print only results: no notes or warnings on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'relay;status'= {
            cand --sign-with 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)'
            cand --store 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here'
            cand --project 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml'
            cand --color 'When to color human output'
            cand --redact-secrets 'For this command, store credentials found in the input as <REDACTED:rule-id>'
            cand --allow-secrets 'For this command, store credentials found in the input as they are'
            cand --sign 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
            cand --json 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
            cand -q 'Print only results: no notes or warnings on stderr'
            cand --quiet 'Print only results: no notes or warnings on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'relay;export'= {
            cand --out 'A new or empty folder, or - for stdout'
            cand --share 'Apply the share profile [share.NAME] of config.toml: what may leave, dropped, redacted'
            cand --sign-with 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)'
            cand --store 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here'
            cand --project 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml'
            cand --color 'When to color human output'
            cand --all-projects 'Every project, not just the selected one'
            cand --redact-secrets 'For this command, store credentials found in the input as <REDACTED:rule-id>'
            cand --allow-secrets 'For this command, store credentials found in the input as they are'
            cand --sign 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
            cand --json 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
            cand -q 'Print only results: no notes or warnings on stderr'
            cand --quiet 'Print only results: no notes or warnings on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'relay;import'= {
            cand --project-map 'Import project OLD as NEW (repeatable)'
            cand --on-conflict 'What to do with a record the store refuses: a package id held with other content or by another project, a package taken back in its review, a fact whose source package is missing (skip: leave it out and list it)'
            cand --sign-with 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)'
            cand --store 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here'
            cand --project 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml'
            cand --color 'When to color human output'
            cand --dry-run 'Report what would change; write nothing'
            cand --force 'Import a backup folder that has no manifest'
            cand --redact-secrets 'For this command, store credentials found in the input as <REDACTED:rule-id>'
            cand --allow-secrets 'For this command, store credentials found in the input as they are'
            cand --sign 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
            cand --json 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
            cand -q 'Print only results: no notes or warnings on stderr'
            cand --quiet 'Print only results: no notes or warnings on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'relay;verify'= {
            cand --sign-with 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)'
            cand --store 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here'
            cand --project 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml'
            cand --color 'When to color human output'
            cand --fix 'Repair what is safe, then check again'
            cand --signatures 'Also judge every record version''s signature against .relay/allowed_signers'
            cand --redact-secrets 'For this command, store credentials found in the input as <REDACTED:rule-id>'
            cand --allow-secrets 'For this command, store credentials found in the input as they are'
            cand --sign 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
            cand --json 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
            cand -q 'Print only results: no notes or warnings on stderr'
            cand --quiet 'Print only results: no notes or warnings on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'relay;doctor'= {
            cand --server 'A relay server to check: it must answer GET URL/v1/conformance (http:// only)'
            cand --sign-with 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)'
            cand --store 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here'
            cand --project 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml'
            cand --color 'When to color human output'
            cand --redact-secrets 'For this command, store credentials found in the input as <REDACTED:rule-id>'
            cand --allow-secrets 'For this command, store credentials found in the input as they are'
            cand --sign 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
            cand --json 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
            cand -q 'Print only results: no notes or warnings on stderr'
            cand --quiet 'Print only results: no notes or warnings on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'relay;resolve'= {
            cand --sign-with 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)'
            cand --store 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here'
            cand --project 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml'
            cand --color 'When to color human output'
            cand --redact-secrets 'For this command, store credentials found in the input as <REDACTED:rule-id>'
            cand --allow-secrets 'For this command, store credentials found in the input as they are'
            cand --sign 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
            cand --json 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
            cand -q 'Print only results: no notes or warnings on stderr'
            cand --quiet 'Print only results: no notes or warnings on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'relay;merge'= {
            cand --sign-with 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)'
            cand --store 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here'
            cand --project 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml'
            cand --color 'When to color human output'
            cand --no-commit 'Leave the merge staged (MERGE_HEAD set) for `git commit` instead of committing'
            cand --redact-secrets 'For this command, store credentials found in the input as <REDACTED:rule-id>'
            cand --allow-secrets 'For this command, store credentials found in the input as they are'
            cand --sign 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
            cand --json 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
            cand -q 'Print only results: no notes or warnings on stderr'
            cand --quiet 'Print only results: no notes or warnings on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'relay;keys'= {
            cand --sign-with 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)'
            cand --store 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here'
            cand --project 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml'
            cand --color 'When to color human output'
            cand --redact-secrets 'For this command, store credentials found in the input as <REDACTED:rule-id>'
            cand --allow-secrets 'For this command, store credentials found in the input as they are'
            cand --sign 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
            cand --json 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
            cand -q 'Print only results: no notes or warnings on stderr'
            cand --quiet 'Print only results: no notes or warnings on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand generate 'Make an Ed25519 key (mode 0600, and KEY.pub) and print its allowed_signers line'
            cand add 'Allow a key you already have: append its allowed_signers line for you'
            cand rotate 'Move to a new signing key: a key rotation record signed with the current key, and the new key''s line in .relay/allowed_signers'
            cand list 'The entries of .relay/allowed_signers: principals, key type, fingerprint, options'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'relay;keys;generate'= {
            cand --out 'Where to write the private key (the public key goes to PATH.pub)'
            cand --actor 'The actor the key signs as; default: [actor] id in config, then git user.email, then $USER'
            cand --sign-with 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)'
            cand --store 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here'
            cand --project 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml'
            cand --color 'When to color human output'
            cand --add 'Also append the line to .relay/allowed_signers'
            cand --redact-secrets 'For this command, store credentials found in the input as <REDACTED:rule-id>'
            cand --allow-secrets 'For this command, store credentials found in the input as they are'
            cand --sign 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
            cand --json 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
            cand -q 'Print only results: no notes or warnings on stderr'
            cand --quiet 'Print only results: no notes or warnings on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'relay;keys;add'= {
            cand --actor 'The actor the key signs as; default: [actor] id in config, then git user.email, then $USER'
            cand --sign-with 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)'
            cand --store 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here'
            cand --project 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml'
            cand --color 'When to color human output'
            cand --redact-secrets 'For this command, store credentials found in the input as <REDACTED:rule-id>'
            cand --allow-secrets 'For this command, store credentials found in the input as they are'
            cand --sign 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
            cand --json 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
            cand -q 'Print only results: no notes or warnings on stderr'
            cand --quiet 'Print only results: no notes or warnings on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'relay;keys;rotate'= {
            cand --new 'The new key: an OpenSSH key file (private, or PATH.pub), made there as `keys generate` would when PATH does not exist yet'
            cand --actor 'The actor whose key it is; default: [actor] id in config, then git user.email, then $USER'
            cand --sign-with 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)'
            cand --store 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here'
            cand --project 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml'
            cand --color 'When to color human output'
            cand --redact-secrets 'For this command, store credentials found in the input as <REDACTED:rule-id>'
            cand --allow-secrets 'For this command, store credentials found in the input as they are'
            cand --sign 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
            cand --json 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
            cand -q 'Print only results: no notes or warnings on stderr'
            cand --quiet 'Print only results: no notes or warnings on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'relay;keys;list'= {
            cand --sign-with 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)'
            cand --store 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here'
            cand --project 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml'
            cand --color 'When to color human output'
            cand --redact-secrets 'For this command, store credentials found in the input as <REDACTED:rule-id>'
            cand --allow-secrets 'For this command, store credentials found in the input as they are'
            cand --sign 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
            cand --json 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
            cand -q 'Print only results: no notes or warnings on stderr'
            cand --quiet 'Print only results: no notes or warnings on stderr'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'relay;keys;help'= {
            cand generate 'Make an Ed25519 key (mode 0600, and KEY.pub) and print its allowed_signers line'
            cand add 'Allow a key you already have: append its allowed_signers line for you'
            cand rotate 'Move to a new signing key: a key rotation record signed with the current key, and the new key''s line in .relay/allowed_signers'
            cand list 'The entries of .relay/allowed_signers: principals, key type, fingerprint, options'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'relay;keys;help;generate'= {
        }
        &'relay;keys;help;add'= {
        }
        &'relay;keys;help;rotate'= {
        }
        &'relay;keys;help;list'= {
        }
        &'relay;keys;help;help'= {
        }
        &'relay;hook'= {
            cand --sign-with 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)'
            cand --store 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here'
            cand --project 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml'
            cand --color 'When to color human output'
            cand --redact-secrets 'For this command, store credentials found in the input as <REDACTED:rule-id>'
            cand --allow-secrets 'For this command, store credentials found in the input as they are'
            cand --sign 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
            cand --json 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
            cand -q 'Print only results: no notes or warnings on stderr'
            cand --quiet 'Print only results: no notes or warnings on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand install 'Install hooks (installing twice changes nothing)'
            cand uninstall 'Remove relay''s hooks and restore what was there before'
            cand flush 'Move what relay''s hooks queued into the store''s logs (the pre-commit hook runs it)'
            cand reconcile 'Put back into the queue what a git move took from the store (post-merge and post-rewrite run it)'
            cand merge-driver 'Merge two versions of a store log (git runs it: `merge.relay.driver`)'
            cand run 'Handle one agent event (what the installed agent hooks run)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'relay;hook;install'= {
            cand --sign-with 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)'
            cand --store 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here'
            cand --project 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml'
            cand --color 'When to color human output'
            cand --git 'The git hooks of the repository you are in'
            cand --claude 'Claude Code''s .claude/settings.json in the repository''s top folder'
            cand --codex 'Codex''s .codex/hooks.json in the repository''s top folder'
            cand --gemini 'Gemini CLI''s .gemini/settings.json in the repository''s top folder'
            cand --cursor 'Cursor''s .cursor/hooks.json in the repository''s top folder'
            cand --opencode 'An OpenCode plugin, .opencode/plugins/relay.js, in the repository''s top folder'
            cand --redact-secrets 'For this command, store credentials found in the input as <REDACTED:rule-id>'
            cand --allow-secrets 'For this command, store credentials found in the input as they are'
            cand --sign 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
            cand --json 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
            cand -q 'Print only results: no notes or warnings on stderr'
            cand --quiet 'Print only results: no notes or warnings on stderr'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'relay;hook;uninstall'= {
            cand --sign-with 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)'
            cand --store 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here'
            cand --project 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml'
            cand --color 'When to color human output'
            cand --git 'The git hooks of the repository you are in'
            cand --claude 'Claude Code''s .claude/settings.json in the repository''s top folder'
            cand --codex 'Codex''s .codex/hooks.json in the repository''s top folder'
            cand --gemini 'Gemini CLI''s .gemini/settings.json in the repository''s top folder'
            cand --cursor 'Cursor''s .cursor/hooks.json in the repository''s top folder'
            cand --opencode 'An OpenCode plugin, .opencode/plugins/relay.js, in the repository''s top folder'
            cand --redact-secrets 'For this command, store credentials found in the input as <REDACTED:rule-id>'
            cand --allow-secrets 'For this command, store credentials found in the input as they are'
            cand --sign 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
            cand --json 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
            cand -q 'Print only results: no notes or warnings on stderr'
            cand --quiet 'Print only results: no notes or warnings on stderr'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'relay;hook;flush'= {
            cand --sign-with 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)'
            cand --store 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here'
            cand --project 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml'
            cand --color 'When to color human output'
            cand --stage 'Also add the store files it changed to git''s index (what the pre-commit hook asks)'
            cand --redact-secrets 'For this command, store credentials found in the input as <REDACTED:rule-id>'
            cand --allow-secrets 'For this command, store credentials found in the input as they are'
            cand --sign 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
            cand --json 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
            cand -q 'Print only results: no notes or warnings on stderr'
            cand --quiet 'Print only results: no notes or warnings on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'relay;hook;reconcile'= {
            cand --sign-with 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)'
            cand --store 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here'
            cand --project 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml'
            cand --color 'When to color human output'
            cand --redact-secrets 'For this command, store credentials found in the input as <REDACTED:rule-id>'
            cand --allow-secrets 'For this command, store credentials found in the input as they are'
            cand --sign 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
            cand --json 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
            cand -q 'Print only results: no notes or warnings on stderr'
            cand --quiet 'Print only results: no notes or warnings on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'relay;hook;merge-driver'= {
            cand --sign-with 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)'
            cand --store 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here'
            cand --project 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml'
            cand --color 'When to color human output'
            cand --redact-secrets 'For this command, store credentials found in the input as <REDACTED:rule-id>'
            cand --allow-secrets 'For this command, store credentials found in the input as they are'
            cand --sign 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
            cand --json 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
            cand -q 'Print only results: no notes or warnings on stderr'
            cand --quiet 'Print only results: no notes or warnings on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'relay;hook;run'= {
            cand --agent 'The agent that sends it'
            cand --max-chars 'SessionStart''s briefing budget in characters [default: 9000 for claude and gemini, 8000 for codex, cursor and opencode]'
            cand --sign-with 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)'
            cand --store 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here'
            cand --project 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml'
            cand --color 'When to color human output'
            cand --redact-secrets 'For this command, store credentials found in the input as <REDACTED:rule-id>'
            cand --allow-secrets 'For this command, store credentials found in the input as they are'
            cand --sign 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
            cand --json 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
            cand -q 'Print only results: no notes or warnings on stderr'
            cand --quiet 'Print only results: no notes or warnings on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'relay;hook;help'= {
            cand install 'Install hooks (installing twice changes nothing)'
            cand uninstall 'Remove relay''s hooks and restore what was there before'
            cand flush 'Move what relay''s hooks queued into the store''s logs (the pre-commit hook runs it)'
            cand reconcile 'Put back into the queue what a git move took from the store (post-merge and post-rewrite run it)'
            cand merge-driver 'Merge two versions of a store log (git runs it: `merge.relay.driver`)'
            cand run 'Handle one agent event (what the installed agent hooks run)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'relay;hook;help;install'= {
        }
        &'relay;hook;help;uninstall'= {
        }
        &'relay;hook;help;flush'= {
        }
        &'relay;hook;help;reconcile'= {
        }
        &'relay;hook;help;merge-driver'= {
        }
        &'relay;hook;help;run'= {
        }
        &'relay;hook;help;help'= {
        }
        &'relay;scan'= {
            cand --sign-with 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)'
            cand --store 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here'
            cand --project 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml'
            cand --color 'When to color human output'
            cand --staged 'Only the store lines staged for commit'
            cand --redact-secrets 'For this command, store credentials found in the input as <REDACTED:rule-id>'
            cand --allow-secrets 'For this command, store credentials found in the input as they are'
            cand --sign 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
            cand --json 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
            cand -q 'Print only results: no notes or warnings on stderr'
            cand --quiet 'Print only results: no notes or warnings on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'relay;conformance'= {
            cand --model 'The embedding model''s folder (see `relay search --help`)'
            cand --check 'Run the conformance test suite instead: against this build on a scratch store it deletes after (no URL), or against the server at this http or https URL (with --project ID, an existing project to write into, or --scratch-ok)'
            cand --token 'With --check: the token to send as `Authorization: Bearer TOKEN`'
            cand --timeout 'With --check: the seconds one request may take'
            cand --sign-with 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)'
            cand --store 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here'
            cand --project 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml'
            cand --color 'When to color human output'
            cand --scratch-ok 'With --check URL: the store behind URL is a scratch one, where the suite may make a project and leave it archived'
            cand --redact-secrets 'For this command, store credentials found in the input as <REDACTED:rule-id>'
            cand --allow-secrets 'For this command, store credentials found in the input as they are'
            cand --sign 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
            cand --json 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
            cand -q 'Print only results: no notes or warnings on stderr'
            cand --quiet 'Print only results: no notes or warnings on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'relay;completions'= {
            cand --sign-with 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)'
            cand --store 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here'
            cand --project 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml'
            cand --color 'When to color human output'
            cand --redact-secrets 'For this command, store credentials found in the input as <REDACTED:rule-id>'
            cand --allow-secrets 'For this command, store credentials found in the input as they are'
            cand --sign 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
            cand --json 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
            cand -q 'Print only results: no notes or warnings on stderr'
            cand --quiet 'Print only results: no notes or warnings on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'relay;onboard'= {
            cand --write 'Write the block into FILE (atomically) instead of printing it'
            cand --sign-with 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)'
            cand --store 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here'
            cand --project 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml'
            cand --color 'When to color human output'
            cand --redact-secrets 'For this command, store credentials found in the input as <REDACTED:rule-id>'
            cand --allow-secrets 'For this command, store credentials found in the input as they are'
            cand --sign 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
            cand --json 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
            cand -q 'Print only results: no notes or warnings on stderr'
            cand --quiet 'Print only results: no notes or warnings on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'relay;mcp'= {
            cand --actor 'Who is acting; default: [actor] id in config, then git user.email, then $USER'
            cand --actor-type 'What kind of actor'
            cand --session 'The session (id or callsign) to record; default: this clone''s current session'
            cand --model 'The embedding model for semantic and hybrid search (see `relay search --help`)'
            cand --sign-with 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)'
            cand --store 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here'
            cand --project 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml'
            cand --color 'When to color human output'
            cand --redact-secrets 'For this command, store credentials found in the input as <REDACTED:rule-id>'
            cand --allow-secrets 'For this command, store credentials found in the input as they are'
            cand --sign 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
            cand --json 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
            cand -q 'Print only results: no notes or warnings on stderr'
            cand --quiet 'Print only results: no notes or warnings on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'relay;watch'= {
            cand --since 'Where to start: `now` (the default), `beginning`, or a cursor from an earlier event'
            cand --kind 'The kinds to print, comma-separated: package, transition, fact, session, project, retracted, expired (default: all). A hidden package or fact comes as retracted or expired when its own kind is asked for. Resync events always come'
            cand --until-idle 'Exit after SECONDS with no new event'
            cand --sign-with 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)'
            cand --store 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here'
            cand --project 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml'
            cand --color 'When to color human output'
            cand --all-projects 'Every project, including those created while watching (default: the current project)'
            cand --once 'Print what is there after --since, then exit'
            cand --cursor 'Print the cursor of the current end of the store (for a later --since) and exit'
            cand --redact-secrets 'For this command, store credentials found in the input as <REDACTED:rule-id>'
            cand --allow-secrets 'For this command, store credentials found in the input as they are'
            cand --sign 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
            cand --json 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
            cand -q 'Print only results: no notes or warnings on stderr'
            cand --quiet 'Print only results: no notes or warnings on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'relay;serve'= {
            cand --listen 'The address to listen on, IP:PORT or NAME:PORT (localhost:7700 binds loopback; port 0: any free port). Only loopback until a token exists'
            cand --max-body 'The largest request body, in bytes (larger: 413)'
            cand --timeout 'Seconds a request may take to arrive and be answered (slower: 408, or for headers the connection is closed)'
            cand --max-streams 'The most event streams (/v1/projects/{id}/events, GET /mcp) open at once; past it a new one is refused with 503 and Retry-After. An open stream holds a socket, no thread'
            cand --max-streams-per-caller 'The most event streams one caller (a token, a console login, the local user) holds open; past it its new one is refused with 429 and Retry-After'
            cand --model 'The embedding model for semantic and hybrid search (see `relay search --help`)'
            cand --allow-host 'Answer requests whose Host is NAME too (repeatable): the name clients reach the server by, behind a proxy or under a DNS name. NAME matches any port, NAME:PORT that port only. Without it, only the listening address and localhost are answered (421 otherwise), so that a web page cannot reach the server under a name of its own'
            cand --actor 'Who is acting; default: [actor] id in config, then git user.email, then $USER'
            cand --actor-type 'What kind of actor'
            cand --session 'The session (id or callsign) to record; default: this clone''s current session'
            cand --sign-with 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)'
            cand --store 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here'
            cand --project 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml'
            cand --color 'When to color human output'
            cand --redact-secrets 'For this command, store credentials found in the input as <REDACTED:rule-id>'
            cand --allow-secrets 'For this command, store credentials found in the input as they are'
            cand --sign 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
            cand --json 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
            cand -q 'Print only results: no notes or warnings on stderr'
            cand --quiet 'Print only results: no notes or warnings on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'relay;token'= {
            cand --sign-with 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)'
            cand --store 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here'
            cand --project 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml'
            cand --color 'When to color human output'
            cand --redact-secrets 'For this command, store credentials found in the input as <REDACTED:rule-id>'
            cand --allow-secrets 'For this command, store credentials found in the input as they are'
            cand --sign 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
            cand --json 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
            cand -q 'Print only results: no notes or warnings on stderr'
            cand --quiet 'Print only results: no notes or warnings on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand create 'Make a token and print it (once: only its hash is kept)'
            cand list 'Every token, revoked ones too (no secrets: ids, actors, scopes, times)'
            cand narrow 'Narrow a token: keep only some of its projects, or make it read-only'
            cand revoke 'Revoke a token: requests with it are refused from now on, its open streams end'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'relay;token;create'= {
            cand --actor 'The actor the token acts as'
            cand --actor-type 'What kind of actor'
            cand --scope 'Limit the token to this project too (repeatable, or comma-separated)'
            cand --sign-with 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)'
            cand --store 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here'
            cand --project 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml'
            cand --color 'When to color human output'
            cand --read-only 'The token may read, never write'
            cand --redact-secrets 'For this command, store credentials found in the input as <REDACTED:rule-id>'
            cand --allow-secrets 'For this command, store credentials found in the input as they are'
            cand --sign 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
            cand --json 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
            cand -q 'Print only results: no notes or warnings on stderr'
            cand --quiet 'Print only results: no notes or warnings on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'relay;token;list'= {
            cand --sign-with 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)'
            cand --store 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here'
            cand --project 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml'
            cand --color 'When to color human output'
            cand --redact-secrets 'For this command, store credentials found in the input as <REDACTED:rule-id>'
            cand --allow-secrets 'For this command, store credentials found in the input as they are'
            cand --sign 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
            cand --json 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
            cand -q 'Print only results: no notes or warnings on stderr'
            cand --quiet 'Print only results: no notes or warnings on stderr'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'relay;token;narrow'= {
            cand --scope 'A project the token keeps (repeatable, or comma-separated); the others are dropped'
            cand --sign-with 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)'
            cand --store 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here'
            cand --project 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml'
            cand --color 'When to color human output'
            cand --read-only 'The token may read from now on, never write'
            cand --redact-secrets 'For this command, store credentials found in the input as <REDACTED:rule-id>'
            cand --allow-secrets 'For this command, store credentials found in the input as they are'
            cand --sign 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
            cand --json 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
            cand -q 'Print only results: no notes or warnings on stderr'
            cand --quiet 'Print only results: no notes or warnings on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'relay;token;revoke'= {
            cand --sign-with 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)'
            cand --store 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here'
            cand --project 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml'
            cand --color 'When to color human output'
            cand --redact-secrets 'For this command, store credentials found in the input as <REDACTED:rule-id>'
            cand --allow-secrets 'For this command, store credentials found in the input as they are'
            cand --sign 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
            cand --json 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
            cand -q 'Print only results: no notes or warnings on stderr'
            cand --quiet 'Print only results: no notes or warnings on stderr'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'relay;token;help'= {
            cand create 'Make a token and print it (once: only its hash is kept)'
            cand list 'Every token, revoked ones too (no secrets: ids, actors, scopes, times)'
            cand narrow 'Narrow a token: keep only some of its projects, or make it read-only'
            cand revoke 'Revoke a token: requests with it are refused from now on, its open streams end'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'relay;token;help;create'= {
        }
        &'relay;token;help;list'= {
        }
        &'relay;token;help;narrow'= {
        }
        &'relay;token;help;revoke'= {
        }
        &'relay;token;help;help'= {
        }
        &'relay;ui'= {
            cand --port 'The port on 127.0.0.1 (0: any free port)'
            cand --model 'The embedding model for search by meaning (see `relay search --help`)'
            cand --actor 'Who is acting; default: [actor] id in config, then git user.email, then $USER'
            cand --actor-type 'What kind of actor'
            cand --session 'The session (id or callsign) to record; default: this clone''s current session'
            cand --sign-with 'Sign every write with this OpenSSH Ed25519 private key (overrides [sign] key)'
            cand --store 'The store folder (.relay/ itself, or a folder holding it); default: search upward from here'
            cand --project 'The project to act on [env: RELAY_PROJECT]; default: `default_project` in .relay/config.toml'
            cand --color 'When to color human output'
            cand --no-open 'Print the link, do not open a browser'
            cand --redact-secrets 'For this command, store credentials found in the input as <REDACTED:rule-id>'
            cand --allow-secrets 'For this command, store credentials found in the input as they are'
            cand --sign 'Sign this command''s writes: with the configured key ([sign] key), else ~/.ssh/id_ed25519'
            cand --json 'Machine-readable output: one JSON object per line; errors as JSON on stderr'
            cand -q 'Print only results: no notes or warnings on stderr'
            cand --quiet 'Print only results: no notes or warnings on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'relay;help'= {
            cand init 'Create a relay store (.relay/) in this folder, with a first project'
            cand deposit 'Record a context package: what you did, decided, left open, and who should pick it up'
            cand pull 'Read packages: one in full by id, the newest ones, or the most relevant to a query'
            cand projects 'Manage the store''s projects'
            cand facts 'Track what is true now, and what was true then'
            cand session 'Group work into sessions with memorable callsigns (e.g. coral-heron)'
            cand lesson 'Record lessons learned once and needed forever, and list them'
            cand checkpoint 'Record where you stand (working on, decisions, blockers), or show each agent''s latest'
            cand snippet 'Keep a piece of code or text as a snippet, with its path, lines and git blob id'
            cand search 'Find the packages most relevant to a query'
            cand index 'Build the search indexes and the vectors of search by meaning now'
            cand orient 'Brief a new session: latest handoff, recent work, open questions, active facts'
            cand orchestrate 'Assemble a digest of recent work for an agent to synthesise (relay runs no LLM)'
            cand review 'Put packages through review: flag, approve, request changes, list'
            cand retract 'Take back a package or a fact: reads stop showing it, its history keeps it'
            cand purge 'Remove expired or retracted records from the logs (the one command that rewrites them)'
            cand status 'Summarise the store: projects, package counts, reviews, facts, sessions, size, warnings'
            cand export 'Back up projects as plain wire records (offline, restorable anywhere)'
            cand import 'Restore records: a backup folder, an NDJSON stream, or another store''s .relay/ folder'
            cand verify 'Check every line of the store; with --fix, repair what is safe'
            cand doctor 'Check the whole setup end to end, and say how to fix what is wrong'
            cand resolve 'Finish a git merge that left store files unmerged (an octopus merge)'
            cand merge 'Merge several branches at once, keeping every side''s store records'
            cand keys 'Make signing keys and list who may sign (.relay/allowed_signers)'
            cand hook 'Hook relay into git and coding agents (Claude Code, Codex, Gemini CLI, Cursor, OpenCode)'
            cand scan 'Look for credentials in the store: every line, every version'
            cand conformance 'Print the conformance descriptor (§11.5), or check a server''s conformance (--check URL)'
            cand completions 'Print a shell completion script'
            cand onboard 'Print the block that teaches coding agents to use relay (for AGENTS.md, CLAUDE.md)'
            cand mcp 'Serve relay to AI agents over the Model Context Protocol (MCP), on stdin and stdout'
            cand watch 'Print records as they are appended to the store, until interrupted'
            cand serve 'Serve the store over HTTP: the Agentic Protocol''s HTTP mapping (§9.1), with bearer tokens'
            cand token 'Make, list, narrow and revoke the bearer tokens of `relay serve`'
            cand ui 'Open the web console: timeline, search, facts, the review queue and orient, in a browser'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'relay;help;init'= {
        }
        &'relay;help;deposit'= {
        }
        &'relay;help;pull'= {
        }
        &'relay;help;projects'= {
            cand list 'List every project (NDJSON of project records with --json)'
            cand create 'Create a project'
            cand info 'Show one project and how many packages it holds'
            cand rename 'Give a project a new display name (its id never changes)'
            cand archive 'Archive a project: it stays readable, but refuses deposits'
            cand unarchive 'Undo an archive'
        }
        &'relay;help;projects;list'= {
        }
        &'relay;help;projects;create'= {
        }
        &'relay;help;projects;info'= {
        }
        &'relay;help;projects;rename'= {
        }
        &'relay;help;projects;archive'= {
        }
        &'relay;help;projects;unarchive'= {
        }
        &'relay;help;facts'= {
            cand assert 'Record a value, superseding the current one (a no-op only if the value, confidence, source, tags and start are all already current)'
            cand invalidate 'End the current fact(s) of a key without a replacement; prints how many ended'
            cand get 'The current value of a key, or the one valid at --at (exit 1 if none)'
            cand list 'Current facts (one per subject and predicate), filtered'
            cand history 'Every value a key has had, oldest first'
        }
        &'relay;help;facts;assert'= {
        }
        &'relay;help;facts;invalidate'= {
        }
        &'relay;help;facts;get'= {
        }
        &'relay;help;facts;list'= {
        }
        &'relay;help;facts;history'= {
        }
        &'relay;help;session'= {
            cand start 'Start a session and make it current'
            cand end 'End a session (default: the current one) and record its packages'
            cand status 'The current session: RELAY_SESSION, else this clone''s'
            cand list 'Sessions of the project, oldest first'
            cand show 'A session with the packages deposited in it, their decisions and open questions'
        }
        &'relay;help;session;start'= {
        }
        &'relay;help;session;end'= {
        }
        &'relay;help;session;status'= {
        }
        &'relay;help;session;list'= {
        }
        &'relay;help;session;show'= {
        }
        &'relay;help;lesson'= {
            cand add 'Record a lesson; prints its id and hash like `relay deposit`'
            cand list 'The project''s lessons, most severe first, then newest'
        }
        &'relay;help;lesson;add'= {
        }
        &'relay;help;lesson;list'= {
        }
        &'relay;help;checkpoint'= {
            cand show 'Each actor''s latest checkpoint in the project (or ACTOR''s), newest first'
        }
        &'relay;help;checkpoint;show'= {
        }
        &'relay;help;snippet'= {
            cand add 'Store lines START..=END of FILE (1-based; the whole file without a range)'
        }
        &'relay;help;snippet;add'= {
        }
        &'relay;help;search'= {
        }
        &'relay;help;index'= {
        }
        &'relay;help;orient'= {
        }
        &'relay;help;orchestrate'= {
        }
        &'relay;help;review'= {
            cand flag 'Ask for review: the package becomes awaiting_review (from draft, awaiting_review or revision_requested)'
            cand approve 'Approve: the package becomes complete (from any status but complete)'
            cand request-changes 'Send it back: awaiting_review becomes revision_requested'
            cand list 'Packages awaiting review, oldest request first, with who flagged them and why'
        }
        &'relay;help;review;flag'= {
        }
        &'relay;help;review;approve'= {
        }
        &'relay;help;review;request-changes'= {
        }
        &'relay;help;review;list'= {
        }
        &'relay;help;retract'= {
        }
        &'relay;help;purge'= {
        }
        &'relay;help;status'= {
        }
        &'relay;help;export'= {
        }
        &'relay;help;import'= {
        }
        &'relay;help;verify'= {
        }
        &'relay;help;doctor'= {
        }
        &'relay;help;resolve'= {
        }
        &'relay;help;merge'= {
        }
        &'relay;help;keys'= {
            cand generate 'Make an Ed25519 key (mode 0600, and KEY.pub) and print its allowed_signers line'
            cand add 'Allow a key you already have: append its allowed_signers line for you'
            cand rotate 'Move to a new signing key: a key rotation record signed with the current key, and the new key''s line in .relay/allowed_signers'
            cand list 'The entries of .relay/allowed_signers: principals, key type, fingerprint, options'
        }
        &'relay;help;keys;generate'= {
        }
        &'relay;help;keys;add'= {
        }
        &'relay;help;keys;rotate'= {
        }
        &'relay;help;keys;list'= {
        }
        &'relay;help;hook'= {
            cand install 'Install hooks (installing twice changes nothing)'
            cand uninstall 'Remove relay''s hooks and restore what was there before'
            cand flush 'Move what relay''s hooks queued into the store''s logs (the pre-commit hook runs it)'
            cand reconcile 'Put back into the queue what a git move took from the store (post-merge and post-rewrite run it)'
            cand merge-driver 'Merge two versions of a store log (git runs it: `merge.relay.driver`)'
            cand run 'Handle one agent event (what the installed agent hooks run)'
        }
        &'relay;help;hook;install'= {
        }
        &'relay;help;hook;uninstall'= {
        }
        &'relay;help;hook;flush'= {
        }
        &'relay;help;hook;reconcile'= {
        }
        &'relay;help;hook;merge-driver'= {
        }
        &'relay;help;hook;run'= {
        }
        &'relay;help;scan'= {
        }
        &'relay;help;conformance'= {
        }
        &'relay;help;completions'= {
        }
        &'relay;help;onboard'= {
        }
        &'relay;help;mcp'= {
        }
        &'relay;help;watch'= {
        }
        &'relay;help;serve'= {
        }
        &'relay;help;token'= {
            cand create 'Make a token and print it (once: only its hash is kept)'
            cand list 'Every token, revoked ones too (no secrets: ids, actors, scopes, times)'
            cand narrow 'Narrow a token: keep only some of its projects, or make it read-only'
            cand revoke 'Revoke a token: requests with it are refused from now on, its open streams end'
        }
        &'relay;help;token;create'= {
        }
        &'relay;help;token;list'= {
        }
        &'relay;help;token;narrow'= {
        }
        &'relay;help;token;revoke'= {
        }
        &'relay;help;ui'= {
        }
        &'relay;help;help'= {
        }
    ]
    $completions[$command]
}
