// Rules of intent definitions that JSON Schema cannot express (see schemas/README.md). The C++
// loader applies the same rules; tests/schemas/invalid/*.yaml tagged [semantic] exercise them.
// REQUIRES: `def` is valid against schemas/intent-v1.json.

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
        steps(step.branch.then, `${at}/branch/then`, scope);
        steps(step.branch.else, `${at}/branch/else`, scope);
      } else if ('try' in step) {
        steps(step.try.steps, `${at}/try/steps`, scope);
        steps(step.try.catch, `${at}/try/catch`, scope);
      } else {
        if (step.action === 'intent' && step.name === def.intent) {
          add(`${at}/name`, `intent '${def.intent}' calls itself (unbounded recursion)`);
        }
        for (const [k, x] of Object.entries(step)) {
          if (step.action === 'execute' && k === 'script') continue;  // JavaScript, not a template
          value(x, `${at}/${k}`, scope, k);
        }
      }
    });
  }

  const scope = new Set(params.keys());
  steps(def.steps, '/steps', scope);
  if (def.success) value(def.success, '/success', scope);
  if (def.failure) {
    value(def.failure.conditions, '/failure/conditions', scope);
    steps(def.failure.recovery, '/failure/recovery', scope);
  }
  return errors;
}
