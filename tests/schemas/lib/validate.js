// Validation of intent, pack and patterns YAML files against schemas/*.json (Ajv, draft 2020-12,
// strict mode), with errors reduced to JSON Pointers so corpus files can name the offending field.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import YAML from 'yaml';

import { semanticErrors } from './semantic.js';

const here = dirname(fileURLToPath(import.meta.url));
export const repoRoot = resolve(here, '..', '..', '..');
export const schemaDir = join(repoRoot, 'schemas');

export const SCHEMA_FILES = {
  intent: 'intent-v1.json',
  pack: 'pack-v1.json',
  patterns: 'patterns-v1.json',
};

export function readSchema(kind) {
  return JSON.parse(readFileSync(join(schemaDir, SCHEMA_FILES[kind]), 'utf8'));
}

// One Ajv per call: strict mode (unknown keywords, ambiguous types, undeclared required
// properties are compile errors), every error reported, formats (regex) checked.
export function makeAjv() {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  return ajv;
}

let validators = null;
export function getValidators() {
  if (!validators) {
    const ajv = makeAjv();
    validators = {};
    for (const kind of Object.keys(SCHEMA_FILES)) validators[kind] = ajv.compile(readSchema(kind));
  }
  return validators;
}

// Which schema a file follows: *.pack.yaml / pack.yaml, *.patterns.yaml / patterns.yaml, else intent.
export function kindOf(file) {
  const base = file.split('/').pop();
  if (base === 'pack.yaml' || base.endsWith('.pack.yaml')) return 'pack';
  if (base === 'patterns.yaml' || base.endsWith('.patterns.yaml')) return 'patterns';
  return 'intent';
}

// YAML 1.2 (core schema), one document, duplicate keys are errors.
export function parseYaml(text) {
  const docs = YAML.parseAllDocuments(text, { uniqueKeys: true });
  if (docs.length !== 1) return { error: `expected one YAML document, found ${docs.length}` };
  const doc = docs[0];
  if (doc.errors.length) return { error: doc.errors.map((e) => e.message).join('; ') };
  return { data: doc.toJS({ maxAliasCount: 100 }) };
}

const escapeToken = (s) => String(s).replace(/~/g, '~0').replace(/\//g, '~1');

// The JSON Pointer of the field an Ajv error is about: for "missing", "unknown" and
// "depends on" errors, the named property below the object, else the instance itself.
export function errorPath(err) {
  const p = err.params || {};
  switch (err.keyword) {
    case 'required': return `${err.instancePath}/${escapeToken(p.missingProperty)}`;
    case 'additionalProperties': return `${err.instancePath}/${escapeToken(p.additionalProperty)}`;
    case 'unevaluatedProperties': return `${err.instancePath}/${escapeToken(p.unevaluatedProperty)}`;
    case 'dependentRequired':
    case 'dependencies': return `${err.instancePath}/${escapeToken(p.property)}`;
    case 'propertyNames': return `${err.instancePath}/${escapeToken(p.propertyName)}`;
    default:
      return err.propertyName !== undefined
        ? `${err.instancePath}/${escapeToken(err.propertyName)}` : err.instancePath;
  }
}

// Schema errors of a parsed value, as [{path, message}].
export function schemaErrors(kind, data) {
  const validate = getValidators()[kind];
  if (validate(data)) return [];
  return validate.errors.map((e) => ({ path: errorPath(e), message: `${e.keyword}: ${e.message}` }));
}

// Everything wrong with a YAML text of the given kind: {stage: 'yaml'|'schema'|'semantic'|null, errors}.
export function checkText(kind, text) {
  const parsed = parseYaml(text);
  if (parsed.error) return { stage: 'yaml', errors: [{ path: '', message: parsed.error }] };
  const errors = schemaErrors(kind, parsed.data);
  if (errors.length) return { stage: 'schema', errors, data: parsed.data };
  const sem = kind === 'intent' ? semanticErrors(parsed.data) : [];
  if (sem.length) return { stage: 'semantic', errors: sem, data: parsed.data };
  return { stage: null, errors: [], data: parsed.data };
}

// Segment-wise JSON Pointer prefix test ("/a/b" is a prefix of "/a/b/c", not of "/a/bc").
export function isPrefix(prefix, path) {
  if (prefix === '') return true;
  return path === prefix || path.startsWith(`${prefix}/`);
}

// Corpus header, first line of every corpus file:
//   # valid: <source>
//   # invalid: <JSON Pointer>: <reason> [semantic|yaml]
const HEADER = /^# (valid|invalid): (.+)$/;
const INVALID = /^(\/\S*): (.+?)(?: \[(semantic|yaml)\])?$/;
export function parseHeader(text) {
  const first = text.split('\n', 1)[0];
  const m = HEADER.exec(first);
  if (!m) return null;
  if (m[1] === 'valid') return { valid: true, source: m[2] };
  const inv = INVALID.exec(m[2]);
  if (!inv) return null;
  return { valid: false, path: inv[1], reason: inv[2], stage: inv[3] || 'schema' };
}
