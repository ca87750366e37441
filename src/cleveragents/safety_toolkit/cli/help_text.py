"""The help of each `safety-profile` command: its one-line summary, description, examples
and exit status, in one style (`--help` shows the examples and exit status after the options).
"""

from __future__ import annotations

from collections.abc import Sequence

from cleveragents.reading.lean_typing import NamedTuple

__all__ = [
    "ADD_FLOOR_HELP",
    "COMMAND_HELP",
    "FLOOR_HELP",
    "KIND_HELP",
    "NO_FLOOR_HELP",
    "CommandHelp",
]

CHECK_DESCRIPTION = """\
Validate YAML files as Safety Profiles (the default) or actions, and report every problem of
every file, sorted by file and line, each with its file, line, column and field. A file that
looks like the other kind gets a hint (`--kind action`); it is still checked as the kind asked
for. Files are only read, never written.

Where a floor applies (--floor, or `floor` in [tool.safety-profile] of the nearest
pyproject.toml up to the repository root), each field of a profile, or of an action's
safety_profile, that is looser than the floor's is an error (floor.looser).

A file that is a link out of its git repository (outside one: out of the current folder and
the file's own), or to a file there git does not hold (in .git, ignored), is not read
(file.outside); a name another file has on a case-insensitive or
normalising file system (macOS, Windows) is an error (file.name-collision); when git refuses
the repository a file is in, the command stops (exit 2).
"""

SCHEMA_DESCRIPTION = """\
Print the JSON Schema (draft 2020-12) of a document kind, or the path of the installed schema
file, for editors and other JSON Schema validators.
"""

SHOW_DESCRIPTION = """\
Print the effective document: every field, defaults filled in, each line marked `# from file`
or `# default`. An invalid file is reported as `check` reports it, and nothing is shown.
"""

INIT_DESCRIPTION = """\
Write a starter Safety Profile: every field at its default, each under its description, and
first the modeline from which editors (yaml-language-server) read the schema. Never overwrites
a file.
"""

COMPLETION_DESCRIPTION = """\
Print a script that completes safety-profile's commands, options, choices and file names in
SHELL (written by shtab from this command's own options, so it is never out of date). Load it
from your shell's start-up file, or install it where the shell looks for completions:

  bash  eval "$(safety-profile completion bash)"   in ~/.bashrc
  zsh   safety-profile completion zsh > "${fpath[1]}/_safety-profile"   (then a new shell)
  fish  safety-profile completion fish > ~/.config/fish/completions/safety-profile.fish
"""

RESOLVE_DESCRIPTION = """\
Print the safety profile that applies to a plan and its provenance (PLAN, ACTION, PROJECT or
GLOBAL): plan > action > project > global, the highest layer that sets a profile wins whole.

--action takes an ACTION file: its embedded safety_profile is the action layer (an action
without one sets none), and its automation_profile is shown beside the result, with the
overlapping flags the safety profile overrules. --plan, --project and --global take SAFETY
PROFILE files. Without --global the built-in DEFAULT_SAFETY_PROFILE is the global layer.
This command works in any mode: it shows what server-mode resolution decides.
Where a floor applies (--floor, or the pyproject.toml found from the current folder), each field
of the applied profile looser than the floor's is noted, and the exit status is 1.
"""

DIFF_DESCRIPTION = """\
Say whether a change makes a safety profile less strict, field by field: one line per changed
field with the field, old -> new, tightens or loosens, and its position in the new file.
Invalid files are reported as `check` reports them.

  OLD NEW                compare two files.
  --git REV [PATH ...]   compare each profile file of the working tree with its content at
                         REV (--staged: the staged content instead; --to REV2: REV2's).
                         A file new since REV is reported as added and compared with
                         --baseline FILE (default: DEFAULT_SAFETY_PROFILE), each looser field
                         a loosening; a deleted one loosens ("removed: the next layer
                         applies"). Each side is read as a checkout holds it: links followed
                         inside the repository; a file a git attribute transforms (filter,
                         working-tree-encoding, ident) is refused. Without PATH, the files named
                         like the pre-commit hooks' (*safety_profile*.yaml, *safety-profile*.yml
                         in any case; --kind action: YAML files under an actions/ folder); with
                         PATHs, every YAML file at or under them.
  --pre-commit [PATH ...]  what the safety-profile-loosening hook runs: PRE_COMMIT_FROM_REF
                         against PRE_COMMIT_TO_REF when pre-commit sets them (pre-push), else
                         HEAD against the staged content. A staged file named like the
                         kind's is, when invalid, one line: the check hook reports why.

--kind action compares the safety_profile of action files; an action that loses its profile
loosens. Where a floor applies (--floor, or `floor` in [tool.safety-profile] of the nearest
pyproject.toml, as REV sets it and as the new side does) and --baseline is not given, the floor
is an added file's baseline, and a changed file is held to it too: each field looser than the
floor loosens (floor.looser). With --git, a change to the floor itself is compared like a
profile's, and removing its setting loosens (floor.removed); a name another file has on
macOS or Windows is an error (file.name-collision).

which value is stricter (a key left out counts as its default):
{rules}
"""

RULES_DESCRIPTION = """\
List every rule the toolkit reports (its id, default severity and title), or explain one: what
it refuses and why, how to fix it, which other readers of the file disagree, and where its
documentation is. Every problem `check`, `diff`, `show` and `resolve` report names its rule
(`--format json`: "rule"; `--format sarif`: the ruleId). A rule's former id
(`schema.cost_order`, `root-type`, `added`, ...) still finds it, under the id it has now.
"""

KIND_HELP = (
    "what the file is: profile, a Safety Profile file; action, an action file with its "
    "embedded safety_profile (default: %(default)s)"
)


FLOOR_HELP = (
    "the floor every profile must meet: a safety profile FILE, or pkg:PACKAGE/RESOURCE, a file "
    "in an installed Python package (default: `floor` in [tool.safety-profile] of the nearest "
    "pyproject.toml, from each file's folder up to the repository root; none when no "
    "pyproject.toml sets one)"
)

NO_FLOOR_HELP = (
    "check without the configured floor; refused when a pyproject.toml sets one, unless the "
    "environment sets SAFETY_PROFILE_ALLOW_NO_FLOOR=1 (default: off)"
)

ADD_FLOOR_HELP = (
    "a floor every profile must meet as well as the others (--floor's, or the configured "
    "ones): a FILE or pkg:PACKAGE/RESOURCE; give it again for more (default: none). CI gives "
    "the organisation's floor this way, so no pyproject.toml can lift it"
)

_FLOOR_EXIT = "2 usage error or a floor that cannot be used"


class CommandHelp(NamedTuple):
    summary: str  # the command's line in `safety-profile --help`
    description: str
    examples: Sequence[tuple[str, str]]  # (command line, what it shows, or "")
    exit_status: str

    @property
    def epilog(self) -> str:
        """The end of `--help`: the examples, then the exit status."""
        width = max((len(command) for command, note in self.examples if note), default=0)
        lines = [f"  {command:<{width}}  {note}".rstrip() for command, note in self.examples]
        return "examples:\n" + "\n".join(lines) + f"\n\nexit status: {self.exit_status}\n"


LSP_DESCRIPTION = """\
Serve the Language Server Protocol over standard input and output, for editors. Files named
like the pre-commit hooks' files get check's problems as diagnostics (same line, column,
message and rule), quick fixes, and notes on what loosens against HEAD; other YAML files get
nothing. initializationOptions: {"kind": "profile" | "action"} checks every YAML file as that
kind; {"debounce_ms": N} (default 50). Needs: pip install 'cleveragents-safety-profile[lsp]'.
"""

COMMAND_HELP = {
    "check": CommandHelp(
        "validate files; report every problem with file, line, column and field",
        CHECK_DESCRIPTION,
        [
            ("safety-profile check safety_profile.yaml", ""),
            ("safety-profile check --format json profiles/*.yaml", "(for scripts)"),
            ("safety-profile check --format github profiles/*.yaml", "(GitHub annotations)"),
            ("safety-profile check --kind action actions/*.yaml", "(actions)"),
        ],
        "0 all files valid, 1 a file is invalid or unreadable or below the floor, " + _FLOOR_EXIT,
    ),
    "schema": CommandHelp(
        "print the JSON Schema (or its installed path)",
        SCHEMA_DESCRIPTION,
        [
            ("safety-profile schema", "(the Safety Profile schema)"),
            ("safety-profile schema --path", "(the installed file, for editors)"),
            ("safety-profile schema --kind action --path", ""),
        ],
        "0, 2 usage error",
    ),
    "show": CommandHelp(
        "print the effective document, defaults filled in",
        SHOW_DESCRIPTION,
        [
            ("safety-profile show safety_profile.yaml", ""),
            ("safety-profile show --kind action actions/deploy.yaml", "(nested profile too)"),
        ],
        "0 shown, 1 the file is invalid or unreadable, 2 usage error",
    ),
    "init": CommandHelp(
        "write a starter profile: every field at its default, commented, with the editor "
        "modeline; never overwrites a file",
        INIT_DESCRIPTION,
        [
            ("safety-profile init", "(writes safety_profile.yaml)"),
            ("safety-profile init prod.safety_profile.yaml", ""),
            ("safety-profile init --schema https://example.com/safety_profile.schema.json", ""),
        ],
        "0 written, 1 FILE exists or cannot be written, 2 usage error",
    ),
    "resolve": CommandHelp(
        "show which safety profile applies to a plan, and from which layer",
        RESOLVE_DESCRIPTION,
        [
            (
                "safety-profile resolve --action actions/deploy.yaml "
                "--project project.safety_profile.yaml",
                "",
            ),
            (
                "safety-profile resolve --plan plan.safety_profile.yaml --format json",
                "(for scripts)",
            ),
        ],
        "0 resolved, 1 a file is invalid or unreadable or the applied profile is below the "
        "floor, " + _FLOOR_EXIT,
    ),
    "completion": CommandHelp(
        "print a shell completion script (bash, zsh or fish)",
        COMPLETION_DESCRIPTION,
        [
            ("safety-profile completion bash", "(source it from ~/.bashrc)"),
            ("safety-profile completion zsh", ""),
            ("safety-profile completion fish", ""),
        ],
        "0, 2 usage error",
    ),
    "rules": CommandHelp(
        "list every rule, or explain one (its meaning, fix and documentation)",
        RULES_DESCRIPTION,
        [
            ("safety-profile rules", "(every rule)"),
            ("safety-profile rules yaml.tab", "(one rule explained)"),
            ("safety-profile rules --format json schema.cost-order", "(for scripts)"),
        ],
        "0, 2 usage error (an unknown rule id is one)",
    ),
    "diff": CommandHelp(
        "say whether a change makes a safety profile less strict, field by field",
        DIFF_DESCRIPTION,  # {rules}: which value of each field is stricter, filled in by the CLI
        [
            ("safety-profile diff old.safety_profile.yaml new.safety_profile.yaml", ""),
            ("safety-profile diff --git HEAD", "(uncommitted changes)"),
            ("safety-profile diff --git HEAD --staged", "(what the next commit changes)"),
            ("safety-profile diff --git origin/main --format github", "(a pull request)"),
            ("safety-profile diff --git v1.0 --to v1.1 --format sarif", "(code scanning)"),
            ("safety-profile diff --kind action --git main actions/", ""),
        ],
        "0 nothing loosens, 1 a change loosens or a file is invalid, " + _FLOOR_EXIT + " (an "
        "unknown revision, or --git outside a git repository, is a usage error too)",
    ),
    "lsp": CommandHelp(
        "a language server: editors show what check reports, while you type",
        LSP_DESCRIPTION,
        [("safety-profile lsp", "(started by the editor; see docs/editors.md)")],
        "0 after the client's shutdown and exit, 2 the lsp extra is not installed",
    ),
}
