// Rules of intent definitions that JSON Schema cannot express (see schemas/README.md). The C++
// loader applies the same rules; tests/schemas/invalid/*.yaml tagged [semantic] exercise them.
// REQUIRES: `def` is valid against schemas/intent-v1.json.

// The built-in step actions: intent-v1.json's $defs/builtinAction (a test checks they agree).
export const BUILTIN_ACTIONS = ['click', 'type', 'select', 'check', 'uncheck', 'clear', 'scroll',
  'wait', 'fill_form', 'intent', 'execute', 'press', 'goto', 'observe', 'screenshot'];

// Built-in intents (intent-engine.md §2.1): what an intent outside a pack may run with
// `action: <name>`, and what any intent may call besides loaded intents.
export const BUILTIN_INTENTS = ['login', 'logout', 'search', 'accept_cookies', 'dismiss_popups',
  'scroll_to', 'fill_form', 'submit_form'];

const WHOLE_REF = /^\$([a-z][a-z0-9_]*)(?:\.[a-z0-9_]+)*$/;
const EMBEDDED_REF = /\$([a-z][a-z0-9_]*)/g;

function deepEqual(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

// Returns [{path, message}] (JSON Pointers), empty when the definition is sound.
export function semanticErrors(def) {
  const errors = [];
  const add = (path, message) => errors.push({ path, message });

  // Parameters: unique names; a default with an enum is one of its values.
  const params = new Map();
  (def.parameters || []).forEach((p, i) => {
    if (params.has(p.name)) {
      add(`/parameters/${i}/name`, `duplicate parameter name '${p.name}' (first at /parameters/${params.get(p.name)})`);
    } else {
      params.set(p.name, i);
    }
    if (Array.isArray(p.enum) && 'default' in p && !p.enum.some((v) => deepEqual(v, p.default))) {
      add(`/parameters/${i}/default`, `default ${JSON.stringify(p.default)} is not one of enum`);
    }
  });

  const checkpoints = new Map();
  const inPack = typeof def.pack === 'string';

  // A condition (wait, branch.if, success and failure conditions): outside a pack, `custom`
  // names no custom condition (they belong to a pack's pack.yaml).
  function condition(c, path) {
    if (Array.isArray(c)) {
      c.forEach((x, i) => condition(x, `${path}/${i}`));
    } else if (c && typeof c === 'object') {
      if ('custom' in c && !inPack) {
        add(`${path}/custom`, `custom condition '${c.custom}' in an intent without a pack (custom conditions belong to a pack)`);
      }
      if (c.all) condition(c.all, `${path}/all`);
      if (c.any) condition(c.any, `${path}/any`);
      if (c.not) condition(c.not, `${path}/not`);
    }
  }

  // A value inside a step or condition: "$name" references must be in scope.
  function value(v, path, scope, key) {
    if (typeof v === 'string') {
      const whole = WHOLE_REF.exec(v);
      if (whole && !scope.has(whole[1])) add(path, `'${v}' references no parameter or loop variable`);
      if (key === 'expression') {
        for (const m of v.matchAll(EMBEDDED_REF)) {
          if (!scope.has(m[1])) add(path, `'$${m[1]}' in the expression references no parameter or loop variable`);
        }
      }
    } else if (Array.isArray(v)) {
      v.forEach((x, i) => value(x, `${path}/${i}`, scope));
    } else if (v && typeof v === 'object') {
      if (v.count && typeof v.count === 'object' && Number.isInteger(v.count.min) &&
          Number.isInteger(v.count.max) && v.count.min > v.count.max) {
        add(`${path}/count/max`, `count.max ${v.count.max} is below count.min ${v.count.min}`);
      }
      for (const [k, x] of Object.entries(v)) value(x, `${path}/${k}`, scope, k);
    }
  }

  function steps(list, path, scope) {
    (list || []).forEach((step, i) => {
      const at = `${path}/${i}`;
      if ('checkpoint' in step) {
        if (checkpoints.has(step.checkpoint)) {
          add(`${at}/checkpoint`, `duplicate checkpoint '${step.checkpoint}' (first at ${checkpoints.get(step.checkpoint)})`);
        } else {
          checkpoints.set(step.checkpoint, at);
        }
      } else if ('loop' in step) {
        const loop = step.loop;
        value(loop.over, `${at}/loop/over`, scope);
        steps(loop.steps, `${at}/loop/steps`, new Set([...scope, loop.as]));
      } else if ('branch' in step) {
        value(step.branch.if, `${at}/branch/if`, scope);
        condition(step.branch.if, `${at}/branch/if`);
        steps(step.branch.then, `${at}/branch/then`, scope);
        steps(step.branch.else, `${at}/branch/else`, scope);
      } else if ('try' in step) {
        steps(step.try.steps, `${at}/try/steps`, scope);
        steps(step.try.catch, `${at}/try/catch`, scope);
      } else {
        if (step.action === 'intent' && step.name === def.intent) {
          add(`${at}/name`, `intent '${def.intent}' calls itself (unbounded recursion)`);
        }
        // An action that is not built in is a custom action of the pack or an intent by name.
        // Outside a pack only a built-in intent can be meant; in a pack the pack loader decides.
        if (!BUILTIN_ACTIONS.includes(step.action) && !inPack) {
          if (!BUILTIN_INTENTS.includes(step.action)) {
            add(`${at}/action`, `unknown action '${step.action}' (neither a built-in action nor a built-in intent; custom actions belong to a pack, other intents are run with action: intent)`);
          } else if (step.action === def.intent) {
            add(`${at}/action`, `intent '${def.intent}' calls itself (unbounded recursion)`);
          }
        }
        if (step.action === 'wait') condition(step.condition, `${at}/condition`);
        for (const [k, x] of Object.entries(step)) {
          if (step.action === 'execute' && k === 'script') continue;  // JavaScript, not a template
          value(x, `${at}/${k}`, scope, k);
        }
      }
    });
  }

  const scope = new Set([...params.keys(), 'result']);  // $result: the last execute or custom action's value
  steps(def.steps, '/steps', scope);
  if (def.success) {
    value(def.success, '/success', scope);
    condition(def.success.conditions, '/success/conditions');
  }
  if (def.failure) {
    value(def.failure.conditions, '/failure/conditions', scope);
    condition(def.failure.conditions, '/failure/conditions');
    steps(def.failure.recovery, '/failure/recovery', scope);
  }
  return errors;
}
