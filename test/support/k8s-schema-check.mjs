// Validates Kubernetes objects (a JSON array on stdin) against kubernetes-models' OpenAPI schemas.
// kubernetes-models is ESM-only, so the manifest test runs this in a plain Node process.
// Prints a JSON array of {kind, name, error} for every object that fails (empty when all pass).
import { readFileSync } from 'node:fs';

const objects = JSON.parse(readFileSync(0, 'utf8'));
const failures = [];
for (const object of objects) {
  const name = object?.metadata?.name;
  const [group, version] = object.apiVersion.includes('/') ? object.apiVersion.split('/') : ['', object.apiVersion];
  const modulePath = group ? `kubernetes-models/${group}/${version}` : `kubernetes-models/${version}`;
  try {
    const models = await import(modulePath);
    const Model = models[object.kind];
    if (typeof Model !== 'function') throw new Error(`no model for ${object.apiVersion} ${object.kind}`);
    new Model(object).validate();
  } catch (error) {
    failures.push({ kind: object.kind, name, error: error instanceof Error ? error.message : String(error) });
  }
}
process.stdout.write(JSON.stringify(failures));
