"""The database support is optional: the toolkit and the pre-commit hook never load it, and
without the [db] extra `cleveragents.persistence` says what to install."""

from __future__ import annotations

import subprocess
import sys

from conftest import EXAMPLES

SPEC_YAML = EXAMPLES / "valid" / "spec_example.safety_profile.yaml"


def run_python(code: str, *arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code, *arguments], capture_output=True, text=True, check=False
    )


def test_toolkit_and_hook_do_not_import_sqlalchemy_or_alembic() -> None:
    code = (
        "import sys\n"
        "import cleveragents.domain.models.core.safety_profile\n"
        "from cleveragents.safety_toolkit.cli import main as cli\n"
        "status = cli.main(['check', '--kind', 'profile', sys.argv[1]])\n"  # the hook's entry
        "loaded = sorted({m.split('.')[0] for m in sys.modules} & {'sqlalchemy', 'alembic'})\n"
        "print(status, loaded)\n"
    )
    result = run_python(code, str(SPEC_YAML))
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "0 []"


def test_persistence_without_the_db_extra_says_what_to_install() -> None:
    code = (
        "import sys\n"
        "sys.modules['sqlalchemy'] = None  # as if SQLAlchemy were not installed\n"
        "import cleveragents.persistence\n"
    )
    result = run_python(code)
    assert result.returncode == 1
    assert result.stderr.splitlines()[-1] == (
        "ModuleNotFoundError: cleveragents.persistence needs SQLAlchemy: "
        "pip install 'cleveragents-safety-profile[db]'"
    )
