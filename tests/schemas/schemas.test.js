// The JSON Schemas of schemas/ against the shipped intents and packs and against the corpus of
// valid and invalid definitions in valid/ and invalid/ (conventions: README.md beside this file).
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'node:test';

import {
  SCHEMA_FILES, checkText, isPrefix, kindOf, makeAjv, parseHeader, readSchema, repoRoot,
} from './lib/validate.js';
import { BUILTIN_ACTIONS, BUILTIN_INTENTS, semanticErrors } from './lib/semantic.js';

const here = dirname(fileURLToPath(import.meta.url));
const yamlIn = (dir) => (existsSync(dir)
  ? readdirSync(dir).filter((f) => f.endsWith('.yaml')).sort().map((f) => join(dir, f)) : []);
const rel = (p) => relative(repoRoot, p);
const show = (errors) => errors.map((e) => `  ${e.path || '(root)'}: ${e.message}`).join('\n');

describe('schemas', () => {
  for (const [kind, file] of Object.entries(SCHEMA_FILES)) {
    test(`${file} compiles with Ajv2020 in strict mode`, () => {
      const schema = readSchema(kind);
      assert.equal(schema.$schema, 'https://json-schema.org/draft/2020-12/schema');
      assert.equal(schema.$id, `https://lemmascope.dev/schemas/${file}`);
      assert.ok(schema.description, 'a header description');
      const ajv = makeAjv();
      // pack-v1.json's hooks and names $ref intent-v1.json ("intent-v1.json#/$defs/step").
      if (kind !== 'intent') ajv.addSchema(readSchema('intent'));
      ajv.compile(schema);  // throws on any strict-mode or meta-schema violation
    });
  }

  test('lib/semantic.js knows the built-in actions of intent-v1.json', () => {
    assert.deepEqual([...BUILTIN_ACTIONS].sort(), [...readSchema('intent').$defs.builtinAction.enum].sort());
  });
});

function assertValid(file) {
  const r = checkText(kindOf(file), readFileSync(file, 'utf8'));
  assert.equal(r.stage, null, `${rel(file)} is invalid (${r.stage}):\n${show(r.errors)}`);
  return r.data;
}

// Every intent a definition calls (`action: intent` with a name, or an action that is not built
// in), anywhere in its step tree.
function intentCalls(node, out = []) {
  if (Array.isArray(node)) node.forEach((n) => intentCalls(n, out));
  else if (node && typeof node === 'object') {
    if (node.action === 'intent' && typeof node.name === 'string') out.push(node.name);
    else if (typeof node.action === 'string' && !BUILTIN_ACTIONS.includes(node.action)) out.push(node.action);
    Object.values(node).forEach((n) => intentCalls(n, out));
  }
  return out;
}

describe('intents/core', () => {
  const dir = join(repoRoot, 'intents', 'core');
  const files = yamlIn(dir);
  const names = files.map((f) => basename(f, '.yaml'));

  test('ships the core intents', () => {
    for (const name of ['next_page', 'prev_page', 'close_modal', 'clear_form', 'sign_out_menu',
      'go_home', 'search_and_open_first', 'accept_terms', 'submit_and_wait']) {
      assert.ok(names.includes(name), `intents/core/${name}.yaml is missing`);
    }
  });

  for (const file of files) {
    test(rel(file), () => {
      const def = assertValid(file);
      assert.equal(def.intent, basename(file, '.yaml'), 'the file is named after its intent');
      assert.ok(def.description, 'has a description');
      assert.ok(def.success?.conditions?.length, 'has success conditions');
      for (const p of def.parameters || []) assert.ok(p.description, `parameter ${p.name} has a description`);
      for (const called of intentCalls(def.steps)) {
        assert.ok(BUILTIN_INTENTS.includes(called) || names.includes(called),
          `calls intent '${called}', which is neither built-in nor a core intent`);
      }
    });
  }
});

// Every YAML file under dir, at any depth.
function yamlTree(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).sort().flatMap((f) => {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) return yamlTree(p);
    return f.endsWith('.yaml') || f.endsWith('.yml') ? [p] : [];
  });
}

// The custom actions (`action: <name>` that is not built in) and custom conditions (`custom:`)
// a list of steps uses, with the conditions of success and failure when given a definition.
function customUses(steps, def = {}) {
  const out = { actions: [], conditions: [] };
  const cond = (c) => {
    if (Array.isArray(c)) c.forEach(cond);
    else if (c && typeof c === 'object') {
      if (typeof c.custom === 'string') out.conditions.push(c.custom);
      for (const k of ['all', 'any', 'not']) if (c[k]) cond(c[k]);
    }
  };
  const walk = (list) => (list || []).forEach((st) => {
    if (st.branch) { cond(st.branch.if); walk(st.branch.then); walk(st.branch.else); }
    else if (st.loop) walk(st.loop.steps);
    else if (st.try) { walk(st.try.steps); walk(st.try.catch); }
    else if (typeof st.action === 'string') {
      if (!BUILTIN_ACTIONS.includes(st.action)) out.actions.push(st.action);
      cond(st.condition);  // a wait step's condition, or a hook step's guard
    }
  });
  walk(steps);
  cond(def.success?.conditions);
  cond(def.failure?.conditions);
  walk(def.failure?.recovery);
  return out;
}

describe('packs', () => {
  const root = join(repoRoot, 'packs');
  const files = yamlTree(root);
  const coreIntents = yamlIn(join(repoRoot, 'intents', 'core')).map((f) => basename(f, '.yaml'));

  test('every YAML file of packs/ is a pack.yaml, a patterns.yaml or an intents/*.yaml', (t) => {
    if (!files.length) t.diagnostic('no packs yet in packs/');
    for (const f of files) {
      const ok = ['pack.yaml', 'patterns.yaml'].includes(basename(f)) ||
        (basename(dirname(f)) === 'intents' && f.endsWith('.yaml'));
      assert.ok(ok, `${rel(f)}: not a pack file (pack.yaml, patterns.yaml, intents/*.yaml)`);
    }
  });

  for (const file of files) {
    test(rel(file), () => {
      const data = assertValid(file);
      if (kindOf(file) === 'pack') {
        assert.equal(data.pack, basename(dirname(file)), 'pack name is its folder name');
      }
      if (kindOf(file) === 'intent') {
        assert.equal(data.intent, basename(file, '.yaml'), 'the file is named after its intent');
        const pack = join(dirname(dirname(file)), 'pack.yaml');
        assert.ok(existsSync(pack), `${rel(pack)} is missing`);
      }
    });
  }

  // What the pack loader resolves across files: every custom action or intent named by an action
  // and every custom condition, in the pack's intents and hooks, exists.
  for (const pack of files.filter((f) => basename(f) === 'pack.yaml')) {
    test(`${rel(dirname(pack))}: custom actions, custom conditions and intents it names exist`, () => {
      const meta = assertValid(pack);
      const intentFiles = yamlIn(join(dirname(pack), 'intents'));
      const intents = intentFiles.map((f) => basename(f, '.yaml'));
      const actions = [...Object.keys(meta.custom_actions || {}), ...intents, ...coreIntents, ...BUILTIN_INTENTS];
      const conditions = Object.keys(meta.custom_conditions || {});
      const users = [
        ...Object.entries(meta.hooks || {}).map(([hook, steps]) => [`hooks.${hook}`, customUses(steps)]),
        ...intentFiles.map((f) => {
          const def = assertValid(f);
          return [rel(f), customUses(def.steps, def)];
        }),
      ];
      for (const [where, used] of users) {
        for (const a of used.actions) assert.ok(actions.includes(a), `${where}: action '${a}' is no custom action of the pack and no intent`);
        for (const c of used.conditions) assert.ok(conditions.includes(c), `${where}: custom condition '${c}' is not defined in pack.yaml`);
      }
    });
  }
});

describe('valid corpus', () => {
  const files = yamlIn(join(here, 'valid'));
  test('has examples of every kind', () => {
    for (const kind of ['intent', 'pack', 'patterns']) {
      assert.ok(files.some((f) => kindOf(f) === kind), `no valid ${kind} example`);
    }
  });
  for (const file of files) {
    test(basename(file), () => {
      const header = parseHeader(readFileSync(file, 'utf8'));
      assert.ok(header?.valid, 'first line is "# valid: <source>"');
      assertValid(file);
    });
  }
});

describe('invalid corpus', () => {
  const files = yamlIn(join(here, 'invalid'));
  test('has at least 20 invalid intent definitions', () => {
    assert.ok(files.filter((f) => kindOf(f) === 'intent').length >= 20);
  });

  for (const file of files) {
    test(basename(file), () => {
      assert.match(basename(file), /^[a-z0-9]+(-[a-z0-9]+)*(\.(pack|patterns))?\.yaml$/, 'kebab-case name');
      const text = readFileSync(file, 'utf8');
      const header = parseHeader(text);
      assert.ok(header && !header.valid,
        'first line is "# invalid: <JSON Pointer>: <reason>" with an optional [semantic] or [yaml] tag');
      const r = checkText(kindOf(file), text);
      assert.notEqual(r.stage, null, 'is accepted, but should not be');
      assert.equal(r.stage, header.stage, `fails at the ${r.stage} stage:\n${show(r.errors)}`);
      if (r.stage === 'yaml') return;
      // The declared field is reported...
      assert.ok(r.errors.some((e) => isPrefix(header.path, e.path)),
        `no error at ${header.path}:\n${show(r.errors)}`);
      // ...and nothing else is wrong: every error is about that field or one of its parents.
      const unrelated = r.errors.filter((e) => !isPrefix(header.path, e.path) && !isPrefix(e.path, header.path));
      assert.deepEqual(unrelated, [], `errors beside ${header.path}:\n${show(unrelated)}`);
      // A file rejected by the schema must not hide a second, semantic mistake either.
      if (r.stage === 'schema' && kindOf(file) === 'intent') {
        let sem = [];
        try { sem = semanticErrors(r.data); } catch { /* shapes the schema rejected */ }
        const other = sem.filter((e) => !isPrefix(header.path, e.path) && !isPrefix(e.path, header.path));
        assert.deepEqual(other, [], `semantic errors beside ${header.path}:\n${show(other)}`);
      }
    });
  }
});
