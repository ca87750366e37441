// Which `safety-profile lsp` to run: the settings, else the Python extension's interpreter, else
// `safety-profile` on PATH; the first that has the [lsp] extra wins. In an untrusted workspace
// nothing from the folder itself is run (docs/editors.md, "Workspace trust").
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";

export const INSTALL_COMMAND = "pip install 'cleveragents-safety-profile[lsp]'";

/** A way to run the server: `command args...` (the client adds `--stdio`). */
export interface Candidate {
  command: string;
  args: string[];
  origin: string; // where it came from, for the log and the notification
}

export type Verdict = "ok" | "no lsp extra" | "not installed" | "refused" | "failed";

export interface Tried {
  candidate: Candidate;
  verdict: Verdict;
  detail: string;
}

export function executableCandidate(command: string, origin: string): Candidate {
  return { command, args: ["lsp"], origin };
}

export function interpreterCandidate(python: string, origin: string): Candidate {
  // -P: the current folder (the workspace) is not put on sys.path, so no module of the folder
  // can stand in for ours (Python 3.11+, as the package requires).
  return { command: python, args: ["-P", "-m", "cleveragents.safety_toolkit", "lsp"], origin };
}

/** `name` as the shell would find it on PATH (an absolute path or one with a folder is kept). */
export function onPath(name: string, pathVariable = process.env.PATH ?? ""): string | undefined {
  if (name.includes(path.sep)) {
    return path.resolve(name);
  }
  for (const folder of pathVariable.split(path.delimiter)) {
    if (!folder || !path.isAbsolute(folder)) {
      continue; // a relative PATH entry would name a file of whatever folder is open
    }
    const found = path.join(folder, name);
    try {
      fs.accessSync(found, fs.constants.X_OK);
      if (fs.statSync(found).isFile()) {
        return found;
      }
    } catch {
      // not here
    }
  }
  return undefined;
}

function inside(file: string, folder: string): boolean {
  const relative = path.relative(folder, file);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}

/** Whether running `command` runs a file of one of `folders`: the path as written (a venv's
 * python is a link to the system's, yet runs the venv's packages) or the file it links to. */
export function fromFolder(command: string, folders: readonly string[]): boolean {
  const given = onPath(command);
  if (given === undefined) {
    return false;
  }
  let real = given;
  try {
    real = fs.realpathSync(given);
  } catch {
    // a missing file runs nothing
  }
  return folders.some((folder) => inside(given, folder) || inside(real, folder));
}

/** Start `candidate` with its standard input closed: a server with the [lsp] extra reads the end
 * of input and exits 0; without it, the command exits 2 and names the extra. */
export function probe(candidate: Candidate, cwd: string | undefined, timeoutMs = 30000): Promise<Tried> {
  return new Promise((resolve) => {
    let stderr = "";
    let settled = false;
    const done = (verdict: Verdict, detail: string) => {
      if (!settled) {
        settled = true;
        resolve({ candidate, verdict, detail });
      }
    };
    const child = spawn(candidate.command, candidate.args, { cwd, stdio: ["ignore", "ignore", "pipe"] });
    const timer = setTimeout(() => {
      child.kill();
      done("failed", `no answer within ${timeoutMs / 1000} s`);
    }, timeoutMs);
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on("error", (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      done("not installed", error.code === "ENOENT" ? "no such file" : error.message);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      const said = stderr.trim().split("\n").slice(-1)[0] ?? "";
      if (code === 0) {
        done("ok", "");
      } else if (stderr.includes("[lsp]")) {
        done("no lsp extra", said);
      } else if (stderr.includes("No module named")) {
        done("not installed", said);
      } else {
        done("failed", `exit status ${code}: ${said}`);
      }
    });
  });
}

/** The first candidate that runs the server, and what was tried. Candidates that would run the
 * folder's own files are refused when the workspace is not trusted. */
export async function findServer(
  candidates: readonly Candidate[],
  trusted: boolean,
  folders: readonly string[],
  cwd: string | undefined,
): Promise<{ found?: Candidate; tried: Tried[] }> {
  const tried: Tried[] = [];
  for (const candidate of candidates) {
    if (!trusted && fromFolder(candidate.command, folders)) {
      tried.push({ candidate, verdict: "refused", detail: "it is a file of this untrusted folder" });
      continue;
    }
    const result = await probe(candidate, cwd);
    tried.push(result);
    if (result.verdict === "ok") {
      return { found: candidate, tried };
    }
  }
  return { tried };
}

export function describeTried(tried: readonly Tried[]): string {
  return tried
    .map((t) => `${t.candidate.origin} (${[t.candidate.command, ...t.candidate.args].join(" ")}): ${t.verdict}${t.detail ? ` (${t.detail})` : ""}`)
    .join("; ");
}
