// The CleverAgents Safety Profile extension: runs `safety-profile lsp`, the pre-commit hook's
// checker, on the files the hooks check (and those `safetyProfile.files` adds), so the editor
// shows the hook's verdict while you type, with quick fixes, completion and hover.
import * as vscode from "vscode";
import {
  LanguageClient,
  LanguageClientOptions,
  Middleware,
  ServerOptions,
  TransportKind,
} from "vscode-languageclient/node";

import {
  Candidate,
  describeTried,
  executableCandidate,
  findServer,
  INSTALL_COMMAND,
  interpreterCandidate,
  onPath,
} from "./server";

const NAME = "Safety Profile";
const KINDS = ["profile", "action"] as const;
type Kind = (typeof KINDS)[number];
/** Files by name: what both VS Code and the language client take as a document selector. */
type Files = { scheme: "file"; pattern: string }[];

function files(globs: readonly string[]): Files {
  return globs.map((pattern) => ({ scheme: "file", pattern }));
}

let output: vscode.LogOutputChannel;
let clients: LanguageClient[] = [];
let starting: Promise<void> | undefined;
let started = false;

/** The hooks' files, as globs in package.json (`safetyProfileDocuments`; a test keeps them in
 * step with .pre-commit-hooks.yaml). The server tells a profile from an action by the same names. */
function hookFiles(context: vscode.ExtensionContext): Files {
  const documents: Record<Kind, string[]> = context.extension.packageJSON.safetyProfileDocuments;
  return KINDS.flatMap((kind) => files(documents[kind]));
}

/** `safetyProfile.files`: more globs, each checked as the kind it names (`report`: log the
 * entries that name no kind, once per start rather than per document opened). */
function addedFiles(report = false): Map<Kind, string[]> {
  const setting = vscode.workspace.getConfiguration("safetyProfile").get<Record<string, string>>("files", {});
  const added = new Map<Kind, string[]>();
  for (const [glob, kind] of Object.entries(setting)) {
    if ((KINDS as readonly string[]).includes(kind)) {
      added.set(kind as Kind, [...(added.get(kind as Kind) ?? []), glob]);
    } else if (report) {
      output.appendLine(`safetyProfile.files: ${JSON.stringify(glob)} names the kind ${JSON.stringify(kind)}; use "profile" or "action"`);
    }
  }
  return added;
}

function folders(): string[] {
  return (vscode.workspace.workspaceFolders ?? [])
    .filter((folder) => folder.uri.scheme === "file")
    .map((folder) => folder.uri.fsPath);
}

async function pythonExtensionInterpreter(): Promise<string | undefined> {
  const python = vscode.extensions.getExtension("ms-python.python");
  if (python === undefined) {
    return undefined;
  }
  try {
    const api = python.isActive ? python.exports : await python.activate();
    const resource = vscode.workspace.workspaceFolders?.[0]?.uri;
    const environment = api?.environments?.getActiveEnvironmentPath?.(resource);
    if (typeof environment?.path === "string" && environment.path) {
      return environment.path;
    }
    const command = api?.settings?.getExecutionDetails?.(resource)?.execCommand;
    return Array.isArray(command) && typeof command[0] === "string" ? command[0] : undefined;
  } catch (error) {
    output.appendLine(`the Python extension's interpreter could not be read: ${error}`);
    return undefined;
  }
}

/** Where to look for the server, in order. */
async function candidates(): Promise<Candidate[]> {
  const settings = vscode.workspace.getConfiguration("safetyProfile");
  output.appendLine(
    `looking for the server (workspace ${vscode.workspace.isTrusted ? "trusted" : "not trusted"}): ` +
      `safetyProfile.path ${JSON.stringify(settings.inspect("path"))}, ` +
      `safetyProfile.interpreter ${JSON.stringify(settings.inspect("interpreter"))}`,
  );
  const found: Candidate[] = [];
  const executable = settings.get<string>("path", "").trim();
  if (executable) {
    found.push(executableCandidate(executable, "the setting safetyProfile.path"));
  }
  const interpreter = settings.get<string>("interpreter", "").trim();
  if (interpreter) {
    found.push(interpreterCandidate(interpreter, "the setting safetyProfile.interpreter"));
  }
  // The Python extension's interpreter is most often the folder's own virtual environment:
  // asked only in a trusted workspace.
  if (vscode.workspace.isTrusted) {
    const python = await pythonExtensionInterpreter();
    if (python) {
      found.push(interpreterCandidate(python, "the Python extension's interpreter"));
    }
  }
  const onPathCommand = onPath("safety-profile");
  if (onPathCommand) {
    found.push(executableCandidate(onPathCommand, "safety-profile on PATH"));
  } else {
    found.push(executableCandidate("safety-profile", "safety-profile on PATH"));
  }
  return found;
}

function notifyMissing(detail: string): void {
  const message =
    `${NAME}: no safety-profile with its language server was found, so profiles are not checked ` +
    `as you type. Install it where VS Code can run it: ${INSTALL_COMMAND} ` +
    `(or set safetyProfile.path), then run "Safety Profile: Restart Server".`;
  output.appendLine(`${message} Tried: ${detail}`);
  void vscode.window.showErrorMessage(message, "Copy install command", "Show log").then((choice) => {
    if (choice === "Copy install command") {
      void vscode.env.clipboard.writeText(INSTALL_COMMAND);
    } else if (choice === "Show log") {
      output.show();
    }
  });
}

function skipping(selector: Files): Middleware {
  // A file the hooks check is the main client's: another kind's client leaves it alone.
  const theirs = (document: vscode.TextDocument) => vscode.languages.match(selector, document) > 0;
  return {
    didOpen: (document, next) => (theirs(document) ? Promise.resolve() : next(document)),
    didChange: (event, next) => (theirs(event.document) ? Promise.resolve() : next(event)),
    didSave: (document, next) => (theirs(document) ? Promise.resolve() : next(document)),
    didClose: (document, next) => (theirs(document) ? Promise.resolve() : next(document)),
    provideCompletionItem: (document, position, context, token, next) =>
      theirs(document) ? undefined : next(document, position, context, token),
    provideHover: (document, position, token, next) => (theirs(document) ? undefined : next(document, position, token)),
    provideCodeActions: (document, range, context, token, next) =>
      theirs(document) ? undefined : next(document, range, context, token),
  };
}

function newClient(server: Candidate, selector: Files, kind?: Kind, middleware?: Middleware): LanguageClient {
  const cwd = folders()[0];
  const serverOptions: ServerOptions = {
    command: server.command,
    args: server.args,
    transport: TransportKind.stdio,
    options: { cwd },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: selector,
    outputChannel: output,
    initializationOptions: kind ? { kind } : {},
    middleware,
  };
  const id = kind ? `safetyProfile.${kind}` : "safetyProfile";
  const name = kind ? `${NAME} (${kind}s from safetyProfile.files)` : NAME;
  return new LanguageClient(id, name, serverOptions, clientOptions);
}

async function start(context: vscode.ExtensionContext): Promise<void> {
  const { found, tried } = await findServer(await candidates(), vscode.workspace.isTrusted, folders(), folders()[0]);
  if (found === undefined) {
    notifyMissing(describeTried(tried));
    return;
  }
  if (tried.length > 1) {
    output.appendLine(`not used: ${describeTried(tried.slice(0, -1))}`);
  }
  output.appendLine(`starting ${[found.command, ...found.args, "--stdio"].join(" ")} (${found.origin})`);
  const hooks = hookFiles(context);
  clients = [newClient(found, hooks)];
  for (const [kind, globs] of addedFiles(true)) {
    clients.push(newClient(found, files(globs), kind, skipping(hooks)));
  }
  await Promise.all(clients.map((client) => client.start()));
}

async function stop(): Promise<void> {
  const stopping = clients;
  clients = [];
  await Promise.all(stopping.map((client) => client.stop().catch(() => undefined)));
}

async function restart(context: vscode.ExtensionContext): Promise<void> {
  await starting;
  starting = (async () => {
    await stop();
    started = true;
    await start(context);
  })();
  await starting;
}

/** Whether a document is one the server checks (the hooks' names or safetyProfile.files). */
function ours(context: vscode.ExtensionContext, document: vscode.TextDocument): boolean {
  const added = files([...addedFiles().values()].flat());
  return vscode.languages.match([...hookFiles(context), ...added], document) > 0;
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  output = vscode.window.createOutputChannel(NAME, { log: true });
  context.subscriptions.push(
    output,
    vscode.commands.registerCommand("safetyProfile.restart", () => restart(context)),
    vscode.commands.registerCommand("safetyProfile.showLog", () => output.show()),
    vscode.workspace.onDidGrantWorkspaceTrust(() => started && restart(context)),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (started && event.affectsConfiguration("safetyProfile")) {
        void restart(context);
      }
    }),
  );
  // The server starts with the first file it checks: a YAML file of another kind costs nothing.
  const startWhenNeeded = (document: vscode.TextDocument) => {
    if (!started && ours(context, document)) {
      void restart(context);
    }
  };
  context.subscriptions.push(vscode.workspace.onDidOpenTextDocument(startWhenNeeded));
  vscode.workspace.textDocuments.forEach(startWhenNeeded);
}

export async function deactivate(): Promise<void> {
  await stop();
}
