// Before packaging (`vscode:prepublish`): the files the .vsix takes from the repository, written
// here so there is one copy of each in git: the LICENSE, and for the YAML extension
// (`contributes.yamlValidation`) the canonical schemas of schema/ with every keyword that
// validates taken out. The YAML extension then completes and describes fields from the
// schemas' own words but reports nothing of its own for these files: every diagnostic comes
// from safety-profile, the hook's checker (docs/editors.md). Usage: node scripts/prepare.mjs [OUT]
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(dirname(fileURLToPath(import.meta.url)));
const repository = join(here, "..", "..");
const out = process.argv[2] ?? here;

// What a schema may keep: words and suggestions, and where its fields are. No `type`, bound,
// `required` or `additionalProperties`: each would make the YAML extension report a problem.
const ANNOTATIONS = new Set([
  "$schema", "title", "description", "markdownDescription", "default", "examples",
  "defaultSnippets", "properties", "items", "$ref",
]);

export function annotationsOnly(schema) {
  const kept = {};
  for (const [key, value] of Object.entries(schema)) {
    if (!ANNOTATIONS.has(key)) continue;
    if (key === "properties") {
      kept.properties = Object.fromEntries(
        Object.entries(value).map(([name, sub]) => [name, annotationsOnly(sub)]),
      );
    } else if (key === "items") {
      kept.items = annotationsOnly(value);
    } else {
      kept[key] = value;
    }
  }
  return kept;
}

mkdirSync(join(out, "schemas"), { recursive: true });
for (const name of ["safety_profile.schema.json", "action.schema.json", "automation_profile.schema.json"]) {
  const schema = JSON.parse(readFileSync(join(repository, "schema", name), "utf8"));
  writeFileSync(join(out, "schemas", name), JSON.stringify(annotationsOnly(schema), null, 2) + "\n");
}
copyFileSync(join(repository, "LICENSE"), join(out, "LICENSE"));
