// Pages written as apps are (JSX, ES imports of npm packages): GET <dir>/<name>.bundle.js
// answers <dir>/<name>.jsx bundled with esbuild (installed in tests/fixtures), and
// <dir>/<name>.bundle.css the CSS it imports. Libraries that ship no browser build (React's UI
// libraries: react-select, Headless UI, Radix, ...) run as their users run them: bundled.
// Bundles are built on first request and kept while the source file is unchanged.
import fs from 'node:fs';
import path from 'node:path';

const built = new Map();  // entry path -> {mtimeMs, promise of {js, css}}
let esbuild = null;

async function loadEsbuild(fixturesDir) {
  if (!esbuild) esbuild = await import(path.join(fixturesDir, 'node_modules', 'esbuild', 'lib', 'main.js'));
  return esbuild.default || esbuild;
}

async function build(entry, fixturesDir) {
  const { build: run } = await loadEsbuild(fixturesDir);
  const result = await run({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: 'iife',
    jsx: 'automatic',
    target: 'chrome110',
    outdir: path.dirname(entry),
    define: { 'process.env.NODE_ENV': '"production"' },
    loader: { '.woff': 'empty', '.woff2': 'empty', '.ttf': 'empty', '.eot': 'empty', '.svg': 'dataurl', '.png': 'dataurl' },
    logLevel: 'silent',
  });
  const out = { js: '', css: '' };
  for (const f of result.outputFiles) {
    if (f.path.endsWith('.js')) out.js = f.text;
    if (f.path.endsWith('.css')) out.css = f.text;
  }
  return out;
}

// The bundle a request path names, or null when it names none: {type, body} or a thrown error
// (esbuild's message, with file:line) when the source does not build.
export async function bundleFor(file, fixturesDir) {
  const m = /^(.*)\.bundle\.(js|css)$/.exec(file);
  if (!m) return null;
  const entry = `${m[1]}.jsx`;
  let stat;
  try {
    stat = fs.statSync(entry);
  } catch {
    return null;
  }
  let cached = built.get(entry);
  if (!cached || cached.mtimeMs !== stat.mtimeMs) {
    cached = { mtimeMs: stat.mtimeMs, promise: build(entry, fixturesDir) };
    built.set(entry, cached);
    cached.promise.catch(() => built.delete(entry));
  }
  const out = await cached.promise;
  return m[2] === 'js' ? { type: 'text/javascript', body: out.js } : { type: 'text/css', body: out.css };
}
