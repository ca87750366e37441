"""`--format sarif`: a SARIF 2.1.0 log for GitHub code scanning and security dashboards (built
by `sarif_log`, imported only when asked for)."""

from __future__ import annotations

from cleveragents.reading.lean_typing import TYPE_CHECKING, final

from .base import CheckedFiles, CheckReporter, DiffReporter, Reporter

if TYPE_CHECKING:
    from ..core.diff import DiffReport

__all__ = ["SarifReporter"]


@final
class SarifReporter(Reporter, CheckReporter, DiffReporter):
    name = "sarif"

    def check(self, files: CheckedFiles) -> str:
        """One result per problem, at its severity's level."""
        from .sarif_log import problem_result, sarif_log

        return sarif_log([problem_result(problem) for problem in files.problems])

    def diff(self, report: DiffReport) -> str:
        """Invalid files as `check` reports them, loosenings as errors, tightenings and added
        profiles as informational results."""
        from cleveragents.reading.problems import labelled

        from .sarif_log import SarifResult, problem_result, sarif_log

        results = [problem_result(problem) for problem in report.problems]
        for finding in report.findings:
            results.append(
                SarifResult(
                    finding.rule,
                    labelled(finding.verdict.value, finding.path, finding.detail, field_first=True),
                    finding.file,
                    finding.line,
                    finding.column,
                    level="error" if finding.verdict == "loosens" else "none",
                )
            )
        return sarif_log(results)
