// Lemmascope in-page scanner: finds and classifies interactive elements, detects UI patterns and
// performs actions for the C++ backends (spec/scanner-protocol.md; contract in scanner/README.md).
(function () {
  'use strict';

  const SCANNER_VERSION = '1.0.0';
  const PROTOCOL_VERSION = '1.0.0';

  // ===============================================================================================
  // 1. Builtins
  // Every builtin the scanner uses is captured once, at load. In the page world a hostile page may
  // already have replaced some of them; then they are taken from a fresh, pristine realm (a hidden
  // iframe that exists for a few microseconds). Nothing below touches a page-replaceable global.
  // ===============================================================================================
  const G = globalThis;
  const B = capturePristine();

  /** Returns the captured builtins, from this realm when it looks untouched, else a clean one. */
  function capturePristine() {
    if (realmLooksNative(G) || !G.document) return captureBuiltins(G);
    let frame = null;
    try {
      frame = G.document.createElement('iframe');
      frame.setAttribute('style', 'display:none');
      frame.setAttribute('aria-hidden', 'true');
      G.document.documentElement.appendChild(frame);
      const clean = frame.contentWindow;
      return clean && realmLooksNative(clean) ? withLiveEvents(captureBuiltins(clean), clean) : captureBuiltins(G);
    } catch (e) {
      return captureBuiltins(G);
    } finally {
      if (frame && frame.parentNode) frame.parentNode.removeChild(frame);
    }
  }

  /**
   * Event listeners registered or events made through a realm whose frame is gone never run: the
   * page's own EventTarget and createEvent methods are used wherever they are still native (a
   * page that replaced one leaves that one to the pristine copy).
   */
  function withLiveEvents(b, clean) {
    const R = clean.Reflect;
    const native = (fn) => typeof fn === 'function' && R.apply(clean.RegExp.prototype.test,
        /\{\s*\[native code\]\s*\}\s*$/, [R.apply(clean.Function.prototype.toString, fn, [])]);
    const live = (owner, name, fallback) => {
      const d = owner ? R.getOwnPropertyDescriptor(owner, name) : null;
      return d && native(d.value) ? R.apply(clean.Function.prototype.bind, clean.Function.prototype.call, [d.value])
          : fallback;
    };
    const ET = G.EventTarget && G.EventTarget.prototype;
    b.addListener = live(ET, 'addEventListener', b.addListener);
    b.removeListener = live(ET, 'removeEventListener', b.removeListener);
    b.dispatchEvent = live(ET, 'dispatchEvent', b.dispatchEvent);
    b.docCreateEvent = live(G.Document && G.Document.prototype, 'createEvent', b.docCreateEvent);
    b.eventInit = live(G.Event && G.Event.prototype, 'initEvent', b.eventInit);
    return b;
  }

  /** True when the builtins the scanner depends on still look like native code in `realm`. */
  function realmLooksNative(realm) {
    try {
      const toStr = realm.Function.prototype.toString;
      const looks = (fn) => typeof fn === 'function' &&
          /\{\s*\[native code\]\s*\}\s*$/.test(realm.Reflect.apply(toStr, fn, []));
      const probes = [
        [realm.Array.prototype, ['map', 'forEach', 'filter', 'push', 'indexOf', 'join', 'slice']],
        [realm.JSON, ['parse', 'stringify']], [realm.Object, ['keys', 'getOwnPropertyDescriptor']],
        [realm.Reflect, ['apply']], [realm.Function.prototype, ['call', 'apply', 'bind', 'toString']],
        [realm.String.prototype, ['toLowerCase', 'trim', 'indexOf', 'slice', 'replace', 'split']],
        [realm.RegExp.prototype, ['exec', 'test']], [realm.Math, ['max', 'min', 'round']],
        [realm, ['getComputedStyle', 'setTimeout', 'requestAnimationFrame', 'Map', 'Set',
          'WeakMap', 'WeakSet', 'MutationObserver', 'Promise', 'Event']],
        [realm.WeakMap.prototype, ['get', 'set']], [realm.WeakSet.prototype, ['add', 'has', 'delete']],
        [realm.Map.prototype, ['get', 'set', 'has', 'forEach']], [realm.Set.prototype, ['add', 'has']],
        [realm.Event.prototype, ['composedPath']],
        [realm.Document.prototype, ['querySelectorAll', 'querySelector', 'elementFromPoint',
          'elementsFromPoint']],
        [realm.Element.prototype, ['getBoundingClientRect', 'getClientRects', 'querySelectorAll',
          'getAttribute', 'closest', 'matches', 'scrollIntoView', 'checkVisibility']],
        [realm.EventTarget.prototype, ['addEventListener', 'removeEventListener', 'dispatchEvent']],
        [realm.HTMLElement.prototype, ['focus', 'blur', 'click']],
        [realm.Node.prototype, ['contains', 'getRootNode']],
      ];
      for (let i = 0; i < probes.length; i++) {
        const owner = probes[i][0];
        const names = probes[i][1];
        for (let j = 0; j < names.length; j++) {
          const d = realm.Object.getOwnPropertyDescriptor(owner, names[j]);
          if (d && !looks(d.value || d.get)) return false;
        }
      }
      const getters = [[realm.Node.prototype, 'parentNode'], [realm.Element.prototype, 'shadowRoot'],
        [realm.HTMLElement.prototype, 'innerText'], [realm.Node.prototype, 'isConnected']];
      for (let i = 0; i < getters.length; i++) {
        const d = realm.Object.getOwnPropertyDescriptor(getters[i][0], getters[i][1]);
        if (d && !looks(d.get)) return false;
      }
      return true;
    } catch (e) {
      return false;
    }
  }

  /** Captures, from `realm`, call-bound copies of every builtin the scanner uses. */
  function captureBuiltins(realm) {
    const apply = realm.Reflect.apply;
    const getOwn = realm.Object.getOwnPropertyDescriptor;
    const getProto = realm.Object.getPrototypeOf;
    const findDesc = (proto, name) => {
      for (let p = proto; p; p = getProto(p)) {
        const d = getOwn(p, name);
        if (d) return d;
      }
      return null;
    };
    // uncurry(fn)(self, a, b) === self.fn(a, b): a bound Function.prototype.call, immune to later
    // prototype changes and as fast as a direct call.
    const fnCall = realm.Function.prototype.call;
    const fnBind = realm.Function.prototype.bind;
    const uncurry = (fn) => (fn ? apply(fnBind, fnCall, [fn]) : null);
    const method = (proto, name) => {
      const d = proto && findDesc(proto, name);
      return d && typeof d.value === 'function' ? uncurry(d.value) : null;
    };
    const getter = (proto, name) => {
      const d = proto && findDesc(proto, name);
      if (d && d.get) return uncurry(d.get);
      return (o) => o[name];
    };
    const setter = (proto, name) => {
      const d = proto && findDesc(proto, name);
      if (d && d.set) return uncurry(d.set);
      return (o, v) => { o[name] = v; };
    };
    const bindTo = (fn, self) => (fn ? apply(fnBind, fn, [self]) : null);
    // A scheduling function the listener registry wraps (a scanner in the page's own world, as
    // WebDriver runs it) gives its original: the scanner's own timers and frames are not the
    // page's work for the registry to follow.
    const unfollowed = (fn) => {
      try {
        const c = G.__lemmascope_channel;
        const o = typeof c === 'string' && c && fn ? fn[c + '-original'] : undefined;
        return typeof o === 'function' ? o : fn;
      } catch (e) {
        return fn;
      }
    };
    const W = realm;
    const D = W.Document.prototype;
    const E = W.Element.prototype;
    const N = W.Node.prototype;
    const H = W.HTMLElement.prototype;
    const I = W.HTMLInputElement.prototype;
    const T = W.HTMLTextAreaElement.prototype;
    const S = W.HTMLSelectElement.prototype;
    const O = W.HTMLOptionElement.prototype;
    const F = W.HTMLFormElement.prototype;
    const IF = W.HTMLIFrameElement.prototype;
    const SR = W.ShadowRoot ? W.ShadowRoot.prototype : null;
    const DF = W.DocumentFragment.prototype;
    const ET = W.EventTarget.prototype;
    const MO = W.MutationObserver.prototype;
    return {
      apply,
      objectKeys: W.Object.keys,
      objectCreate: W.Object.create,
      defineProperty: W.Object.defineProperty,
      hasOwn: uncurry(W.Object.prototype.hasOwnProperty),
      isArray: W.Array.isArray,
      jsonParse: W.JSON.parse,
      jsonStringify: W.JSON.stringify,
      mathMax: W.Math.max, mathMin: W.Math.min, mathRound: W.Math.round,
      mathSqrt: W.Math.sqrt, mathFloor: W.Math.floor, mathAbs: W.Math.abs,
      numIsFinite: W.Number.isFinite, numIsInteger: W.Number.isInteger,
      toStr: W.String,
      toLower: uncurry(W.String.prototype.toLowerCase),
      toUpper: uncurry(W.String.prototype.toUpperCase),
      strTrim: uncurry(W.String.prototype.trim),
      strIndexOf: uncurry(W.String.prototype.indexOf),
      strSlice: uncurry(W.String.prototype.slice),
      strReplace: uncurry(W.String.prototype.replace),
      strSplit: uncurry(W.String.prototype.split),
      charCodeAt: uncurry(W.String.prototype.charCodeAt),
      reTest: uncurry(W.RegExp.prototype.test),
      dateToIso: uncurry(W.Date.prototype.toISOString),
      Map: W.Map, mapGet: method(W.Map.prototype, 'get'), mapSet: method(W.Map.prototype, 'set'),
      mapForEach: method(W.Map.prototype, 'forEach'),
      mapHas: method(W.Map.prototype, 'has'),
      Set: W.Set, setAdd: method(W.Set.prototype, 'add'), setHas: method(W.Set.prototype, 'has'),
      WeakMap: W.WeakMap, wmGet: method(W.WeakMap.prototype, 'get'),
      wmSet: method(W.WeakMap.prototype, 'set'),
      WeakSet: W.WeakSet, wsAdd: method(W.WeakSet.prototype, 'add'),
      wsHas: method(W.WeakSet.prototype, 'has'), wsDelete: method(W.WeakSet.prototype, 'delete'),
      reSource: getter(W.RegExp.prototype, 'source'),
      RegExp: W.RegExp,
      Promise: W.Promise,
      MainFunction: G.Function,
      cssEscape: W.CSS && W.CSS.escape ? W.CSS.escape : null,
      now: W.performance && W.performance.now ? bindTo(W.performance.now, G.performance) : W.Date.now,
      setTimeout: bindTo(unfollowed(W.setTimeout), G),
      clearTimeout: bindTo(unfollowed(W.clearTimeout), G),
      requestAnimationFrame: bindTo(unfollowed(W.requestAnimationFrame), G),
      getComputedStyle: uncurry(W.getComputedStyle),
      MutationObserver: W.MutationObserver,
      moObserve: method(MO, 'observe'), moDisconnect: method(MO, 'disconnect'),
      moTakeRecords: method(MO, 'takeRecords'),
      // Document / ShadowRoot / DocumentFragment
      docQsa: method(D, 'querySelectorAll'),
      docElementFromPoint: method(D, 'elementFromPoint'),
      docElementsFromPoint: method(D, 'elementsFromPoint'),
      docExecCommand: method(D, 'execCommand'), docCreateRange: method(D, 'createRange'),
      docCreateTreeWalker: method(D, 'createTreeWalker'), docEvaluate: method(D, 'evaluate'),
      xpathSnapshotLength: getter(W.XPathResult && W.XPathResult.prototype, 'snapshotLength'),
      xpathSnapshotItem: method(W.XPathResult && W.XPathResult.prototype, 'snapshotItem'),
      reExec: uncurry(W.RegExp.prototype.exec),
      docActiveElement: getter(D, 'activeElement'), docBody: getter(D, 'body'),
      docElement: getter(D, 'documentElement'), docView: getter(D, 'defaultView'),
      docReadyState: getter(D, 'readyState'), docTitle: getter(D, 'title'),
      docCompatMode: getter(D, 'compatMode'),
      docUrl: getter(D, 'URL'), docScrollingElement: getter(D, 'scrollingElement'),
      fragQsa: method(DF, 'querySelectorAll'), fragChildren: getter(DF, 'children'),
      srHost: getter(SR, 'host'), srElementFromPoint: method(SR, 'elementFromPoint'),
      srActiveElement: getter(SR, 'activeElement'),
      // Node / Element
      nodeType: getter(N, 'nodeType'), parentNode: getter(N, 'parentNode'),
      ownerDocument: getter(N, 'ownerDocument'), isConnected: getter(N, 'isConnected'),
      getRootNode: method(N, 'getRootNode'), nodeContains: method(N, 'contains'),
      firstChild: getter(N, 'firstChild'), nextSibling: getter(N, 'nextSibling'),
      previousSibling: getter(N, 'previousSibling'), lastChild: getter(N, 'lastChild'),
      firstElementChild: getter(E, 'firstElementChild'),
      nextElementSibling: getter(E, 'nextElementSibling'),
      previousElementSibling: getter(E, 'previousElementSibling'),
      elAttributes: getter(E, 'attributes'), hasAttributes: method(E, 'hasAttributes'),
      attrName: getter(W.Attr.prototype, 'name'), attrValue: getter(W.Attr.prototype, 'value'),
      docStyleSheets: getter(D, 'styleSheets'), srStyleSheets: getter(SR, 'styleSheets'),
      docAdoptedSheets: getter(D, 'adoptedStyleSheets'), srAdoptedSheets: getter(SR, 'adoptedStyleSheets'),
      sheetRules: getter(W.CSSStyleSheet && W.CSSStyleSheet.prototype, 'cssRules'),
      ruleSelector: getter(W.CSSStyleRule && W.CSSStyleRule.prototype, 'selectorText'),
      ruleStyle: getter(W.CSSStyleRule && W.CSSStyleRule.prototype, 'style'),
      groupRules: getter(W.CSSGroupingRule && W.CSSGroupingRule.prototype, 'cssRules'),
      textContent: getter(N, 'textContent'),
      nodeValue: getter(N, 'nodeValue'),
      localName: getter(E, 'localName'), elId: getter(E, 'id'),
      shadowRoot: getter(E, 'shadowRoot'), parentElement: getter(N, 'parentElement'),
      assignedSlot: getter(E, 'assignedSlot'), textAssignedSlot: getter(W.Text.prototype, 'assignedSlot'),
      slotAssignedNodes: method(W.HTMLSlotElement && W.HTMLSlotElement.prototype, 'assignedNodes'),
      children: getter(E, 'children'),
      getAttribute: method(E, 'getAttribute'), hasAttribute: method(E, 'hasAttribute'),
      elQsa: method(E, 'querySelectorAll'),
      matches: method(E, 'matches'),
      checkVisibility: method(E, 'checkVisibility'),
      getRect: method(E, 'getBoundingClientRect'), getClientRects: method(E, 'getClientRects'),
      scrollIntoView: method(E, 'scrollIntoView'), scrollBy: method(E, 'scrollBy'),
      scrollTop: getter(E, 'scrollTop'), scrollLeft: getter(E, 'scrollLeft'),
      scrollWidth: getter(E, 'scrollWidth'), scrollHeight: getter(E, 'scrollHeight'),
      clientWidth: getter(E, 'clientWidth'), clientHeight: getter(E, 'clientHeight'),
      clientLeft: getter(E, 'clientLeft'), clientTop: getter(E, 'clientTop'),
      // HTMLElement
      innerText: getter(H, 'innerText'), focus: method(H, 'focus'), blur: method(H, 'blur'),
      isContentEditable: getter(H, 'isContentEditable'),
      // Form controls
      inputValue: getter(I, 'value'), setInputValue: setter(I, 'value'),
      inputChecked: getter(I, 'checked'),
      setSelectionRange: method(I, 'setSelectionRange'), inputSelect: method(I, 'select'),
      textareaValue: getter(T, 'value'), setTextareaValue: setter(T, 'value'),
      textareaSetSelectionRange: method(T, 'setSelectionRange'), textareaSelect: method(T, 'select'),
      selectValue: getter(S, 'value'), selectOptions: getter(S, 'options'),
      selectSelectedIndex: getter(S, 'selectedIndex'),
      setSelectSelectedIndex: setter(S, 'selectedIndex'), selectMultiple: getter(S, 'multiple'),
      optionSelected: getter(O, 'selected'), setOptionSelected: setter(O, 'selected'),
      optionText: getter(O, 'text'), optionValue: getter(O, 'value'),
      optionDisabled: getter(O, 'disabled'),
      formRequestSubmit: method(F, 'requestSubmit'), formSubmit: method(F, 'submit'),
      formCheckValidity: method(F, 'checkValidity'),
      iframeContentDocument: getter(IF, 'contentDocument'),
      // Content (extract): URLs resolved by the browser, tables by their own structure.
      anchorHref: getter(W.HTMLAnchorElement.prototype, 'href'),
      areaHref: getter(W.HTMLAreaElement.prototype, 'href'),
      imgSrc: getter(W.HTMLImageElement.prototype, 'currentSrc'),
      formAction: getter(F, 'action'), formMethod: getter(F, 'method'),
      tableRows: getter(W.HTMLTableElement.prototype, 'rows'),
      tableHead: getter(W.HTMLTableElement.prototype, 'tHead'),
      tableCaption: getter(W.HTMLTableElement.prototype, 'caption'),
      rowCells: getter(W.HTMLTableRowElement.prototype, 'cells'),
      cellColSpan: getter(W.HTMLTableCellElement.prototype, 'colSpan'),
      cellRowSpan: getter(W.HTMLTableCellElement.prototype, 'rowSpan'),
      labelControl: getter(W.HTMLLabelElement.prototype, 'control'),
      // Events
      addListener: method(ET, 'addEventListener'), removeListener: method(ET, 'removeEventListener'),
      dispatchEvent: method(ET, 'dispatchEvent'),
      eventDefaultPrevented: getter(W.Event.prototype, 'defaultPrevented'),
      eventComposedPath: method(W.Event.prototype, 'composedPath'),
      eventPreventDefault: method(W.Event.prototype, 'preventDefault'),
      eventStopImmediate: method(W.Event.prototype, 'stopImmediatePropagation'),
      docCreateEvent: method(D, 'createEvent'), eventInit: method(W.Event.prototype, 'initEvent'),
      Event: W.Event,
      // Selection
      getSelection: W.getSelection ? uncurry(W.getSelection) : null,
      selRemoveAll: method(W.Selection && W.Selection.prototype, 'removeAllRanges'),
      selAddRange: method(W.Selection && W.Selection.prototype, 'addRange'),
      rangeSelectContents: method(W.Range.prototype, 'selectNodeContents'),
      rangeCollapse: method(W.Range.prototype, 'collapse'),
      // Window metrics
      innerWidth: getter(W, 'innerWidth'), innerHeight: getter(W, 'innerHeight'),
      scrollX: getter(W, 'scrollX'), scrollY: getter(W, 'scrollY'),
      windowScrollBy: method(W, 'scrollBy'),
    };
  }

  const {
    apply, objectKeys, objectCreate, defineProperty, hasOwn, isArray, jsonParse, jsonStringify,
    mathMax, mathMin, mathRound, mathSqrt, mathFloor, mathAbs, numIsFinite, numIsInteger, toStr, toLower,
    toUpper, charCodeAt, strTrim, strIndexOf, strSlice, strReplace, strSplit, reTest, dateToIso,
    mapGet, mapSet, mapHas, setAdd, setHas, wmGet, wmSet, MainFunction, now, getComputedStyle,
    moObserve, moDisconnect, moTakeRecords, docQsa, docElementFromPoint, docElementsFromPoint,
    docExecCommand, docCreateRange, docCreateTreeWalker, docActiveElement, docBody, docElement,
    docView, docReadyState, docTitle, docCompatMode, docUrl, docScrollingElement, fragQsa, srHost,
    srElementFromPoint, srActiveElement, nodeType, parentNode, ownerDocument, isConnected,
    getRootNode, nodeContains, firstChild, nextSibling, textContent, nodeValue, localName, elId,
    shadowRoot, parentElement, children, getAttribute, hasAttribute, elQsa, matches,
    checkVisibility, getRect, getClientRects, scrollIntoView, scrollBy, scrollTop, scrollLeft,
    scrollWidth, scrollHeight, clientWidth, clientHeight, clientLeft, clientTop, innerText, focus,
    blur, isContentEditable, inputValue, setInputValue, inputChecked, setSelectionRange, inputSelect,
    textareaValue, setTextareaValue, textareaSetSelectionRange, textareaSelect, selectValue, selectOptions,
    selectSelectedIndex, setSelectSelectedIndex, selectMultiple, optionSelected, setOptionSelected,
    optionText, optionValue, optionDisabled, formRequestSubmit, formSubmit, formCheckValidity,
    iframeContentDocument, labelControl, addListener, removeListener, dispatchEvent,
    eventDefaultPrevented, selRemoveAll, selAddRange, rangeSelectContents, rangeCollapse,
    innerWidth, innerHeight, scrollX, scrollY, windowScrollBy, wsAdd, wsHas, wsDelete, previousSibling,
    firstElementChild, nextElementSibling, previousElementSibling,
  } = B;

  const TOP_WINDOW = G;
  const TOP_DOC = G.document;
  // Identifies this document load (the same in every world of it; new after each navigation, not
  // after history.pushState): the navigation start time is per document.
  const DOCUMENT_TOKEN = 'doc-' + documentTimeOrigin();

  function documentTimeOrigin() {
    try {
      return str(G.performance.timeOrigin);
    } catch (e) {
      return str(B.now());
    }
  }

  // ===============================================================================================
  // 2. Small utilities: arrays without Array.prototype, strings, JSON output, parameters, errors.
  // ===============================================================================================

  function push(arr, v) { arr[arr.length] = v; return arr; }

  function each(list, fn) {
    const n = list ? list.length : 0;
    for (let i = 0; i < n; i++) fn(list[i], i);
  }

  function filter(list, fn) {
    const out = [];
    each(list, (v, i) => { if (fn(v, i)) push(out, v); });
    return out;
  }

  function map(list, fn) {
    const out = [];
    each(list, (v, i) => push(out, fn(v, i)));
    return out;
  }

  function find(list, fn) {
    const n = list ? list.length : 0;
    for (let i = 0; i < n; i++) if (fn(list[i], i)) return list[i];
    return null;
  }

  function indexOf(list, v) {
    const n = list ? list.length : 0;
    for (let i = 0; i < n; i++) if (list[i] === v) return i;
    return -1;
  }

  function includes(list, v) { return indexOf(list, v) !== -1; }

  function join(list, sep) {
    let s = '';
    each(list, (v, i) => { s += (i ? sep : '') + v; });
    return s;
  }

  /** Stable merge sort by a numeric key, without Array.prototype. */
  function sortBy(list, keyFn) {
    let run = map(list, (v) => ({ v, k: keyFn(v) }));
    for (let width = 1; width < run.length; width *= 2) {
      const next = [];
      for (let lo = 0; lo < run.length; lo += 2 * width) {
        const mid = mathMin(lo + width, run.length);
        const hi = mathMin(lo + 2 * width, run.length);
        let i = lo;
        let j = mid;
        while (i < mid || j < hi) {
          push(next, j >= hi || (i < mid && run[i].k <= run[j].k) ? run[i++] : run[j++]);
        }
      }
      run = next;
    }
    return map(run, (x) => x.v);
  }

  function str(v) { return v === null || v === undefined ? '' : toStr(v); }

  /** Collapses whitespace runs to one space and trims. */
  function collapse(s) {
    if (s === '' || s === null || s === undefined) return '';
    return strTrim(strReplace(str(s), /[\s\u00a0\u200b]+/g, ' '));
  }

  function truncate(s, max) {
    return s.length > max ? strSlice(s, 0, max - 1) + '\u2026' : s;
  }

  function lc(s) { return toLower(str(s)); }

  function contains_(hay, needle) { return strIndexOf(hay, needle) !== -1; }

  function param(cmd, name, dflt) {
    if (!cmd || !hasOwn(cmd, name)) return dflt;
    const v = cmd[name];
    return v === null || v === undefined ? dflt : v;
  }

  /** A non-negative number parameter (a count, a time in ms); anything else reads as 0. */
  function countParam(cmd, key, dflt) {
    return mathMax(0, +param(cmd, key, dflt) || 0);
  }

  const ERROR_TAG = objectCreate(null);

  /** An expected failure: becomes {"ok":false,"code":code,"error":message}. */
  function fail(code, message) { return { tag: ERROR_TAG, code, message }; }

  // Prototypes whose toJSON would change what JSON.stringify writes (a page world may add one).
  const JSON_PROTOS = [G.Object.prototype, G.Array.prototype, G.String.prototype, G.Number.prototype,
    G.Boolean.prototype];

  /**
   * JSON text of a response: the captured native JSON.stringify (fast on large scans) when no
   * prototype of this realm has a toJSON, else toJson below.
   */
  function serialize(v) {
    for (let i = 0; i < JSON_PROTOS.length; i++) {
      if (JSON_PROTOS[i] && 'toJSON' in JSON_PROTOS[i]) return toJson(v);
    }
    return jsonStringify(v);
  }

  /** Serializes plain data (objects, arrays, strings, numbers, booleans, null) to JSON text. */
  function toJson(v) {
    if (v === null || v === undefined) return 'null';
    const t = typeof v;
    if (t === 'string') return jsonStringify(v);
    if (t === 'number') return numIsFinite(v) ? '' + v : 'null';
    if (t === 'boolean') return v ? 'true' : 'false';
    if (t !== 'object') return 'null';
    if (isArray(v)) return '[' + join(map(v, toJson), ',') + ']';
    let s = '';
    each(objectKeys(v), (k) => {
      const x = v[k];
      if (x === undefined || typeof x === 'function') return;
      s += (s ? ',' : '') + jsonStringify(k) + ':' + toJson(x);
    });
    return '{' + s + '}';
  }

  function errorText(e) {
    try {
      if (e && typeof e === 'object' && 'message' in e) {
        const name = str(e.name);
        return (name && name !== 'Error' ? name + ': ' : '') + str(e.message);
      }
      return str(e);
    } catch (ignored) {
      return 'unknown error';
    }
  }

  function round(n) { return mathRound(n); }

  function clamp(n, lo, hi) { return mathMax(lo, mathMin(hi, n)); }

  function rectJson(r) {
    return { x: round(r.x), y: round(r.y), width: round(r.width), height: round(r.height) };
  }

  // ===============================================================================================
  // 3. DOM access: roots, composed tree, styles, geometry, frames.
  // ===============================================================================================
  const ELEMENT_NODE = 1;
  const DOCUMENT_NODE = 9;
  const FRAGMENT_NODE = 11;

  function tagOf(el) { return toLower(str(localName(el))); }

  function attr(el, name) {
    const v = getAttribute(el, name);
    return v === null ? '' : v;
  }

  function isShadowRoot(node) {
    return node && nodeType(node) === FRAGMENT_NODE && !!srHost(node);
  }

  /** Parent in the composed tree: crosses shadow roots (not frames). */
  function composedParent(el) {
    const p = parentNode(el);
    if (!p) return null;
    if (nodeType(p) === ELEMENT_NODE) return p;
    if (isShadowRoot(p)) return srHost(p);
    return null;
  }

  /** True when `inner` is `outer` or inside it, crossing shadow roots. */
  function composedContains(outer, inner) {
    if (!outer || !inner) return false;
    if (nodeType(outer) !== ELEMENT_NODE) return outer === inner;
    if (nodeContains(outer, inner)) return true;
    // From inside a shadow tree: the host's tree, up to the document.
    for (let root = getRootNode(inner); isShadowRoot(root);) {
      const host = srHost(root);
      if (nodeContains(outer, host)) return true;
      root = getRootNode(host);
    }
    return false;
  }

  function queryAll(root, selector) {
    return nodeType(root) === DOCUMENT_NODE ? docQsa(root, selector)
        : nodeType(root) === ELEMENT_NODE ? elQsa(root, selector) : fragQsa(root, selector);
  }

  function windowOf(el) {
    const doc = nodeType(el) === DOCUMENT_NODE ? el : ownerDocument(el);
    if (doc === TOP_DOC) return TOP_WINDOW;
    return (doc && docView(doc)) || TOP_WINDOW;
  }

  /** The computed style of `el` (a live object: kept per element for the scan), or null. */
  function styleOf(el) {
    const memo = scanMemo && scanMemo.styles;
    let st = memo ? mapGet(memo, el) : undefined;
    if (st !== undefined) return st;
    try {
      st = getComputedStyle(windowOf(el), el);
    } catch (e) {
      st = null;
    }
    if (memo) mapSet(memo, el, st);
    return st;
  }

  function viewportSize(doc) {
    const win = docView(doc) || TOP_WINDOW;
    const root = docElement(doc);
    return {
      width: (root && clientWidth(root)) || innerWidth(win),
      height: (root && clientHeight(root)) || innerHeight(win),
    };
  }

  function pageScroll(doc) {
    const win = docView(doc) || TOP_WINDOW;
    const se = docScrollingElement(doc) || docElement(doc);
    const vp = viewportSize(doc);
    return {
      x: round(scrollX(win)), y: round(scrollY(win)),
      max_x: mathMax(0, round(scrollWidth(se) - vp.width)),
      max_y: mathMax(0, round(scrollHeight(se) - vp.height)),
    };
  }

  /** Where an iframe's content box starts, in the viewport coordinates of its parent document. */
  function frameContentOrigin(iframe) {
    const r = getRect(iframe);
    const st = styleOf(iframe);
    const padL = st ? parseFloatSafe(st.paddingLeft) : 0;
    const padT = st ? parseFloatSafe(st.paddingTop) : 0;
    return { x: r.left + clientLeft(iframe) + padL, y: r.top + clientTop(iframe) + padT };
  }

  function parseFloatSafe(s) {
    const n = +strReplace(str(s), /px$/, '');
    return numIsFinite(n) ? n : 0;
  }

  /** Offset of the document reached through `chain` (outermost iframe first) in the top viewport. */
  function frameOffset(chain) {
    let x = 0;
    let y = 0;
    each(chain, (iframe) => {
      const o = frameContentOrigin(iframe);
      x += o.x;
      y += o.y;
    });
    return { x, y };
  }

  /** Bounding rect of `el` in top-level viewport coordinates. */
  function topRect(el, chain) {
    const r = getRect(el);
    const off = frameOffset(chain);
    return { x: r.left + off.x, y: r.top + off.y, width: r.width, height: r.height };
  }

  // ===============================================================================================
  // 4. Selectors and XPath. Notation: "A >>> B" means "B inside the shadow root of, or inside the
  //    document of the iframe matched by, A". Every selector the scanner emits resolves from the top
  //    document with resolveAll(); plain CSS selectors work as usual.
  // ===============================================================================================
  const PIERCE = ' >>> ';

  function cssEscape(s) {
    if (B.cssEscape) return B.cssEscape(s);
    return strReplace(s, /[^a-zA-Z0-9_\u00a0-\uffff-]/g, (c) => '\\' + c);
  }

  function cssString(s) {
    return '"' + strReplace(strReplace(s, /["\\]/g, '\\$&'), /\n/g, '\\a ') + '"';
  }

  /** Ids that are random or framework-generated make poor selectors and keys. */
  function looksGenerated(id) {
    // React's useId gives ":r1:" (18), "«r1»" and "_r_1_" (19): the delimiters make it generated,
    // not a leading "r" (refresh, results, register).
    return reTest(/\d{4,}|^[:_\u00ab]r[0-9a-z]+[:_\u00bb]$|^:|[0-9a-f]{8,}|^(ember|react|vue|ng|mui|radix|headlessui|css|sc|jsx|emotion|styled)[-_]/i, id);
  }

  // Lives for one scan (null otherwise: actions change the page). Each uniqueness check is a
  // query over the whole root, and many returned elements try the same candidates:
  // `unique` maps root -> selector -> its only match (null: none, several or invalid);
  // `attrs` maps root -> "tag[attribute]" -> value -> its only element (null: several).
  // Also `slots` (root -> has <slot> elements), `labels` (root -> control -> its labels) and
  // `styles` (element -> computed style object, which is live), `search` (inSearchLandmark).
  let scanMemo = null;

  function rootMemo(table, root) {
    let m = mapGet(table, root);
    if (!m) {
      m = new B.Map();
      mapSet(table, root, m);
    }
    return m;
  }

  function isUnique(root, selector, el) {
    const known = scanMemo ? rootMemo(scanMemo.unique, root) : null;
    if (known && mapHas(known, selector)) return mapGet(known, selector) === el;
    let only = null;
    try {
      const list = queryAll(root, selector);
      only = list.length === 1 ? list[0] : null;
    } catch (e) {
      only = null;
    }
    if (known) mapSet(known, selector, only);
    return only === el;
  }

  /**
   * isUnique(root, 'tag[name="value"]', el). During a scan, answered from one query per root and
   * "tag[name]" that indexes every value (attribute selectors compare values exactly, as here).
   */
  function isUniqueByAttr(root, tag, name, value, el) {
    if (!scanMemo) return isUnique(root, tag + '[' + name + '=' + cssString(value) + ']', el);
    const indexes = rootMemo(scanMemo.attrs, root);
    const key = tag + '[' + name + ']';
    let index = mapGet(indexes, key);
    if (!index) {
      index = new B.Map();
      mapSet(indexes, key, index);
      let list = [];
      try {
        list = queryAll(root, key);
      } catch (e) {
        list = [];
      }
      for (let i = 0; i < list.length; i++) {
        const v = getAttribute(list[i], name);
        mapSet(index, v, mapHas(index, v) ? null : list[i]);
      }
    }
    return mapGet(index, value) === el;
  }

  /** Short CSS selector for `el` that is unique within its own root (document or shadow root). */
  function localSelector(el, root) {
    const tag = tagOf(el);
    const id = elId(el);
    if (id && !looksGenerated(id)) {
      const s = '#' + cssEscape(id);
      if (isUnique(root, s, el)) return s;
    }
    const attrs = ['data-testid', 'data-test', 'data-qa', 'data-cy', 'name', 'aria-label', 'role',
      'action', 'placeholder', 'title'];
    for (let i = 0; i < attrs.length; i++) {
      const v = attr(el, attrs[i]);
      if (!v || v.length > 60) continue;
      if (isUniqueByAttr(root, tag, attrs[i], v, el)) {
        return tag + '[' + attrs[i] + '=' + cssString(v) + ']';
      }
    }
    const classes = strSplit(collapse(attr(el, 'class')), ' ');
    for (let i = 0; i < classes.length && i < 4; i++) {
      const c = classes[i];
      if (!c || looksGenerated(c) || c.length > 40) continue;
      const s = tag + '.' + cssEscape(c);
      if (isUnique(root, s, el)) return s;
    }
    if (tag === 'a') {
      const href = attr(el, 'href');
      if (href && href.length <= 80 && isUniqueByAttr(root, 'a', 'href', href, el)) {
        return 'a[href=' + cssString(href) + ']';
      }
    }
    return pathSelector(el, root);
  }

  /** `#anchor > div:nth-of-type(2) > a` from the nearest uniquely identified ancestor. */
  function pathSelector(el, root) {
    const steps = [];
    let node = el;
    while (node && nodeType(node) === ELEMENT_NODE) {
      const id = elId(node);
      if (node !== el && id && !looksGenerated(id) && isUnique(root, '#' + cssEscape(id), node)) {
        push(steps, '#' + cssEscape(id));
        break;
      }
      push(steps, tagOf(node) + nthOfType(node));
      const p = parentNode(node);
      if (!p || nodeType(p) !== ELEMENT_NODE) break;
      node = p;
    }
    let s = '';
    for (let i = steps.length - 1; i >= 0; i--) s += (s ? ' > ' : '') + steps[i];
    // In a shadow root the path starts at a top-level element; anchor it there when ambiguous.
    if (isShadowRoot(root) && !isUnique(root, s, el)) s = ':host > ' + s;
    return s;
  }

  function nthOfType(el) {
    const pos = siblingPosition(el);
    return pos.count > 1 ? ':nth-of-type(' + pos.index + ')' : '';
  }

  let siblingCache = null; // Map parent -> Map child -> {index, count}; lives for one command

  /** 1-based index of `el` among same-tag siblings, and their count (cached per parent). */
  function siblingPosition(el) {
    const p = parentNode(el);
    if (!p) return { index: 1, count: 1 };
    if (!siblingCache) siblingCache = new B.Map();
    let positions = mapGet(siblingCache, p);
    if (!positions) {
      positions = new B.Map();
      const counts = objectCreate(null);
      const order = [];
      for (let c = firstChild(p); c; c = nextSibling(c)) {
        if (nodeType(c) !== ELEMENT_NODE) continue;
        const tag = localName(c);
        counts[tag] = (counts[tag] || 0) + 1;
        push(order, { c, tag, index: counts[tag] });
      }
      each(order, (o) => mapSet(positions, o.c, { index: o.index, count: counts[o.tag] }));
      mapSet(siblingCache, p, positions);
    }
    return mapGet(positions, el) || { index: 1, count: 1 };
  }

  /** Full selector from the top document, piercing shadow roots and same-origin iframes. */
  function fullSelector(el, chain) {
    const root = getRootNode(el);
    const local = localSelector(el, root);
    if (isShadowRoot(root)) return fullSelector(srHost(root), chain) + PIERCE + local;
    if (chain && chain.length) {
      return fullSelector(chain[chain.length - 1], sliceArr(chain, 0, chain.length - 1)) +
          PIERCE + local;
    }
    return local;
  }

  function sliceArr(arr, from, to) {
    const out = [];
    for (let i = from; i < to; i++) push(out, arr[i]);
    return out;
  }

  /** XPath within the element's own tree; shadow/frame boundaries use the ">>>" notation. */
  function xpathOf(el, chain) {
    const steps = [];
    let node = el;
    while (node && nodeType(node) === ELEMENT_NODE) {
      const tag = localName(node);
      const p = parentNode(node);
      const pos = siblingPosition(node);
      const name = node.namespaceURI === 'http://www.w3.org/1999/xhtml' ? tag
          : "*[local-name()='" + tag + "']";
      push(steps, name + (pos.count > 1 ? '[' + pos.index + ']' : ''));
      node = p && nodeType(p) === ELEMENT_NODE ? p : null;
      if (!node && p && isShadowRoot(p)) {
        let s = '';
        for (let i = steps.length - 1; i >= 0; i--) s += '/' + steps[i];
        return xpathOf(srHost(p), chain) + PIERCE + s;
      }
    }
    let s = '';
    for (let i = steps.length - 1; i >= 0; i--) s += '/' + steps[i];
    if (chain && chain.length) {
      return xpathOf(chain[chain.length - 1], sliceArr(chain, 0, chain.length - 1)) + PIERCE + s;
    }
    return s;
  }

  /** Splits "A >>> B" into parts; throws SELECTOR_INVALID on empty parts. */
  function selectorParts(selector) {
    if (typeof selector !== 'string' || !strTrim(selector)) {
      throw fail('SELECTOR_INVALID', 'selector must be a non-empty CSS selector string');
    }
    const parts = map(strSplit(selector, '>>>'), (p) => strTrim(p));
    each(parts, (p) => {
      if (!p) throw fail('SELECTOR_INVALID', 'invalid selector "' + selector + '": empty part around ">>>"');
    });
    return parts;
  }

  /** All elements matching `selector` (with the ">>>" notation) from `scope` (default: top doc). */
  function resolveAll(selector, scope) {
    const parts = selectorParts(selector);
    let roots = [scope || TOP_DOC];
    let found = [];
    each(parts, (part, i) => {
      found = [];
      each(roots, (root) => {
        let list;
        try {
          list = queryAll(root, part);
        } catch (e) {
          throw fail('SELECTOR_INVALID', 'invalid CSS selector "' + part + '" in "' + selector +
              '": ' + errorText(e) + '. Fix the selector syntax.');
        }
        each(list, (el) => push(found, el));
      });
      if (i < parts.length - 1) roots = innerRoots(found);
    });
    return found;
  }

  // ----- Playwright's css engine semantics for query: combinators pierce open shadow roots -----
  // (playwright.dev/docs/locators#locate-in-shadow-dom: "all locators in Playwright by default
  // work with elements in Shadow DOM"; its css engine evaluates descendant and child combinators
  // over the parent-or-shadow-host chain). Same-origin iframes are reached the same way: a frame
  // document's parent is its <iframe>.

  /** Splits `s` at top-level occurrences of the characters in `at` (outside (), [], quotes). */
  function splitTopLevel(s, at) {
    const out = [];
    let depth = 0;
    let quote = '';
    let start = 0;
    for (let i = 0; i < s.length; i++) {
      const ch = s[i];
      if (ch === '\\') {
        i++;
        continue;
      }
      if (quote) {
        if (ch === quote) quote = '';
        continue;
      }
      if (ch === '"' || ch === "'") quote = ch;
      else if (ch === '(' || ch === '[') depth++;
      else if (ch === ')' || ch === ']') depth--;
      else if (depth === 0 && contains_(at, ch)) {
        push(out, strSlice(s, start, i));
        start = i + 1;
      }
    }
    push(out, strSlice(s, start));
    return out;
  }

  /**
   * One complex selector as [{compound, combinator}] (combinator: how it relates to the previous
   * compound: " ", ">", "+", "~"; "" for the first). Null when it is malformed.
   */
  function parseComplex(sel) {
    const steps = [];
    let depth = 0;
    let quote = '';
    let cur = '';
    let pending = ''; // a combinator seen since the last compound
    const flush = () => {
      if (!cur) return true;
      if (steps.length && !pending) pending = ' ';
      if (!steps.length && pending && pending !== ' ') return false;
      push(steps, { compound: cur, combinator: steps.length ? pending : '' });
      cur = '';
      pending = '';
      return true;
    };
    for (let i = 0; i < sel.length; i++) {
      const ch = sel[i];
      if (ch === '\\') {
        cur += ch + (i + 1 < sel.length ? sel[i + 1] : '');
        i++;
        continue;
      }
      if (quote) {
        cur += ch;
        if (ch === quote) quote = '';
        continue;
      }
      if (depth === 0 && (ch === ' ' || ch === '\t' || ch === '\n' || ch === '>' || ch === '+' || ch === '~')) {
        if (!flush()) return null;
        if (ch !== ' ' && ch !== '\t' && ch !== '\n') {
          if (pending && pending !== ' ') return null;
          pending = ch;
        }
        continue;
      }
      if (ch === '"' || ch === "'") quote = ch;
      else if (ch === '(' || ch === '[') depth++;
      else if (ch === ')' || ch === ']') depth--;
      cur += ch;
    }
    if (!flush() || pending) return null;
    return steps.length ? steps : null;
  }

  /** Parent for the piercing engine: the parent element, shadow host, or <iframe> of a frame. */
  function piercingParent(el, scope) {
    const p = parentNode(el);
    if (!p || p === scope) return null;
    const t = nodeType(p);
    if (t === ELEMENT_NODE) return p;
    if (t === FRAGMENT_NODE) return isShadowRoot(p) ? srHost(p) : null;
    if (t === DOCUMENT_NODE && p !== TOP_DOC) {
      try {
        const win = docView(p);
        return (win && win.frameElement) || null;
      } catch (e) {
        return null;
      }
    }
    return null;
  }

  function safeMatches(el, compound) {
    try {
      return matches(el, compound);
    } catch (e) {
      return false;
    }
  }

  /** True when `el` (matching steps[k]) has the relations of steps[0..k] (right to left). */
  function matchesSteps(el, steps, k, scope) {
    if (k === 0) return true;
    const comb = steps[k].combinator;
    const prev = steps[k - 1].compound;
    if (comb === '>') {
      const p = piercingParent(el, scope);
      return !!p && safeMatches(p, prev) && matchesSteps(p, steps, k - 1, scope);
    }
    if (comb === '+') {
      const sib = previousElementSibling(el);
      return !!sib && safeMatches(sib, prev) && matchesSteps(sib, steps, k - 1, scope);
    }
    if (comb === '~') {
      for (let sib = previousElementSibling(el); sib; sib = previousElementSibling(sib)) {
        if (safeMatches(sib, prev) && matchesSteps(sib, steps, k - 1, scope)) return true;
      }
      return false;
    }
    for (let a = piercingParent(el, scope); a; a = piercingParent(a, scope)) {
      if (safeMatches(a, prev) && matchesSteps(a, steps, k - 1, scope)) return true;
    }
    return false;
  }

  /** Every open shadow root and same-origin frame document under `root` (`root` first), in order. */
  function deepRoots(root) {
    const out = [root];
    for (let i = 0; i < out.length; i++) {
      let all = null;
      try {
        all = queryAll(out[i], '*');
      } catch (e) {
        all = null;
      }
      const n = all ? all.length : 0;
      for (let j = 0; j < n; j++) {
        const el = all[j];
        const sr = shadowRoot(el);
        if (sr) push(out, sr);
        const tag = localName(el);
        if (tag === 'iframe' || tag === 'frame') {
          const doc = safeContentDocument(el);
          if (doc && docElement(doc)) push(out, doc);
        }
      }
    }
    return out;
  }

  /**
   * Elements matching CSS `selector` from `scope` (a document or shadow root), with combinators
   * crossing open shadow roots and same-origin frames, in root order then document order.
   */
  function piercingQuery(selector, scope, whole) {
    try {
      matches(docElement(TOP_DOC), selector); // the syntax check, with the engine's own message
    } catch (e) {
      throw fail('SELECTOR_INVALID', 'invalid CSS selector "' + selector + '" in "' + whole + '": ' +
          errorText(e) + '. Fix the selector syntax.');
    }
    const roots = deepRoots(scope);
    const found = [];
    const seen = new B.Set();
    each(splitTopLevel(selector, ','), (complex) => {
      const steps = parseComplex(strTrim(complex));
      if (!steps) {
        throw fail('SELECTOR_INVALID', 'invalid CSS selector "' + complex + '" in "' + whole + '"');
      }
      const last = steps[steps.length - 1].compound;
      each(roots, (root) => {
        let list = [];
        try {
          list = queryAll(root, last);
        } catch (e) {
          throw fail('SELECTOR_INVALID', 'invalid CSS selector "' + last + '" in "' + whole + '": ' + errorText(e));
        }
        for (let i = 0; i < list.length; i++) {
          const el = list[i];
          if (setHas(seen, el) || !matchesSteps(el, steps, steps.length - 1, scope)) continue;
          setAdd(seen, el);
          push(found, el);
        }
      });
    });
    return found;
  }

  /** query's resolver: ">>>" parts as in resolveAll, each part with piercing combinators. */
  function resolvePiercing(selector) {
    const parts = selectorParts(selector);
    let scopes = [TOP_DOC];
    let found = [];
    each(parts, (part, i) => {
      found = [];
      const seen = new B.Set();
      each(scopes, (scope) => each(piercingQuery(part, scope, selector), (el) => {
        if (!setHas(seen, el)) {
          setAdd(seen, el);
          push(found, el);
        }
      }));
      if (i < parts.length - 1) scopes = innerRoots(found);
    });
    return found;
  }

  /** Shadow roots and same-origin iframe documents directly below `elements`. */
  function innerRoots(elements) {
    const roots = [];
    each(elements, (el) => {
      const sr = shadowRoot(el);
      if (sr) push(roots, sr);
      else if (tagOf(el) === 'iframe' || tagOf(el) === 'frame') {
        const doc = safeContentDocument(el);
        if (doc) push(roots, doc);
      }
    });
    return roots;
  }

  function safeContentDocument(iframe) {
    try {
      return iframeContentDocument(iframe) || null;
    } catch (e) {
      return null;
    }
  }

  /** Iframe chain (outermost first) from the top document to the document holding `el`. */
  function frameChainOf(el) {
    const chain = [];
    let doc = ownerDocument(el);
    while (doc && doc !== TOP_DOC) {
      const win = docView(doc);
      let frame = null;
      try {
        frame = win && win.frameElement;
      } catch (e) {
        frame = null;
      }
      if (!frame) break;
      push(chain, frame);
      doc = ownerDocument(frame);
    }
    const out = [];
    for (let i = chain.length - 1; i >= 0; i--) push(out, chain[i]);
    return out;
  }

  /** Short human description for messages: `div.cookie-overlay "We use cookies"`. */
  function describe(el) {
    if (!el) return 'nothing';
    let s = tagOf(el);
    const id = elId(el);
    if (id) s += '#' + id;
    else {
      const cls = strTrim(collapse(attr(el, 'class')));
      const words = cls ? strSplit(cls, ' ') : [];
      if (words.length) s += '.' + join(sliceArr(words, 0, mathMin(2, words.length)), '.');
    }
    const text = truncate(collapse(safeInnerText(el)), 40);
    return text ? s + ' "' + text + '"' : s;
  }

  function safeInnerText(el) {
    try {
      const t = innerText(el);
      return t === undefined ? textContent(el) : t;
    } catch (e) {
      return str(textContent(el));
    }
  }

  // ===============================================================================================
  // 5. Visibility (spec §4: display, visibility, opacity, size, overflow clipping, clip, off-screen).
  //    checkVisibility() answers display/visibility/opacity (with ancestors) natively; computed
  //    styles are read only for what it does not cover. Ancestor facts and window scroll offsets
  //    are cached per scan so a 10,000-element page stays linear.
  // ===============================================================================================
  const INFINITE_BOX = { left: -1e9, top: -1e9, right: 1e9, bottom: 1e9 };
  // Element.checkVisibility options: false for display:none (self or ancestor, flat tree), no box
  // (display:contents, unslotted), content-visibility:hidden, visibility other than visible and
  // opacity:0 on the element or an ancestor.
  const VISIBILITY_CHECK = { opacityProperty: true, visibilityProperty: true };

  /** Per-scan memo: ancestor facts by element, scroll offsets by window. */
  function newVisibilityCache() { return { facts: new B.Map(), scroll: new B.Map() }; }

  const NO_FACTS = { hidden: '', clip: INFINITE_BOX, view: INFINITE_BOX, fixed: null };

  /**
   * What an ancestor does to its subtree: `hidden` (a reason) when it hides it, `clip` the box that
   * overflow:hidden/clip ancestors cut it to (unreachable beyond), `view` the box actually shown by
   * all clipping and scrolling ancestors (content outside it can be scrolled to), `fixed` the
   * nearest position:fixed ancestor-or-self (a popup candidate). With checkVisibility, `hidden`
   * only records clip/clip-path (display and opacity are its job).
   */
  function ancestorFacts(el, cache) {
    // Iterative (deep DOMs must not overflow the stack): climb to a known ancestor, then descend.
    const known = cache.facts;
    const path = [];
    let n = el;
    while (n && !mapHas(known, n)) {
      push(path, n);
      n = composedParent(n);
    }
    let up = n ? mapGet(known, n) : NO_FACTS;
    for (let i = path.length - 1; i >= 0; i--) {
      up = ownFacts(path[i], up);
      mapSet(known, path[i], up);
    }
    return up;
  }

  /** The facts of `el` given those of its parent, `up`. */
  function ownFacts(el, up) {
    const st = styleOf(el);
    if (!st) return up;
    const position = st.position;
    const fixedHere = position === 'fixed';
    const hidden = up.hidden || (checkVisibility ? '' : displayOrOpacityReason(st)) ||
        (isClippedAway(st, position) ? CLIPPED : '');
    let clip = fixedHere ? INFINITE_BOX : up.clip;
    let view = fixedHere ? INFINITE_BOX : up.view;
    if (clipsOverflow(st)) {
      const tag = tagOf(el);
      if (tag !== 'html' && tag !== 'body') {
        const box = boxOf(getRect(el));
        view = intersect(view, box);
        // What a scroll container holds scrolls into its box: reachable wherever that box is (a
        // list that scrolls inside a panel that clips it: MUI's Autocomplete listbox in its Paper).
        if (!scrollsForChoices(el, st)) clip = intersect(clip, box);
        else clip = boxMeetsRect(clip, getRect(el)) ? scrollExtent(el, box) : intersect(clip, box);
      }
    }
    const fixed = fixedHere ? el : up.fixed;
    if (hidden === up.hidden && clip === up.clip && view === up.view && fixed === up.fixed) return up;
    return { hidden, clip, view, fixed };
  }

  function isScrollable(st) {
    const scrolls = (v) => v === 'auto' || v === 'scroll' || v === 'overlay';
    return scrolls(st.overflowX) || scrolls(st.overflowY);
  }

  /**
   * A scroll box, or a list of choices that hides what overflows it and scrolls it by script or
   * under the pointer (MUI X's time lists: overflow hidden, auto only on :hover): its choices are
   * reachable as a scroll box's are (the keys, or the pointer over it, bring them in). Other boxes
   * that hide their overflow (a carousel, a clamped text) keep it unreachable.
   */
  function scrollsForChoices(el, st) {
    if (isScrollable(st)) return true;
    const role = attr(el, 'role');
    if (role !== 'listbox' && role !== 'menu' && role !== 'tree') return false;
    // Shown, not collapsed (a menu folded to max-height 0 keeps its padding): room for a choice.
    const h = clientHeight(el);
    const w = clientWidth(el);
    if (h - parseFloatSafe(st.paddingTop) - parseFloatSafe(st.paddingBottom) < 8 ||
        w - parseFloatSafe(st.paddingLeft) - parseFloatSafe(st.paddingRight) < 8) return false;
    return overflowsItsBox(el);
  }

  /** More content than `el`'s box shows, either way. */
  function overflowsItsBox(el) {
    return scrollHeight(el) > clientHeight(el) + 1 || scrollWidth(el) > clientWidth(el) + 1;
  }

  /** The whole scrollable area of a scroll container, in viewport coordinates. */
  function scrollExtent(el, box) {
    const left = box.left + clientLeft(el) - scrollLeft(el);
    const top = box.top + clientTop(el) - scrollTop(el);
    return { left, top, right: left + scrollWidth(el), bottom: top + scrollHeight(el) };
  }

  const CLIPPED = 'clipped by clip/clip-path';

  function displayOrOpacityReason(st) {
    if (st.display === 'none') return 'display:none';
    if (+st.opacity === 0) return 'opacity:0';
    return '';
  }

  function clipsOverflow(st) {
    const ox = st.overflowX;
    const oy = st.overflowY;
    return (ox && ox !== 'visible') || (oy && oy !== 'visible');
  }

  /** clip-path cutting everything away, or `clip: rect(0 0 0 0)` (which needs absolute/fixed). */
  function isClippedAway(st, position) {
    const cp = str(st.clipPath);
    if (cp !== 'none' &&
        (reTest(/^inset\(\s*(50%|100%)/, cp) || reTest(/^circle\(\s*0(px|%)?\s/, cp + ' '))) {
      return true;
    }
    if (position !== 'absolute' && position !== 'fixed') return false;
    // rect(top, right, bottom, left) that shows no area: rect(0 0 0 0), or rect(1px, 1px, 1px,
    // 1px) (UI5's hidden texts).
    const m = B.reExec(/^rect\(\s*(-?[\d.]+)(?:px)?[\s,]+(-?[\d.]+)(?:px)?[\s,]+(-?[\d.]+)(?:px)?[\s,]+(-?[\d.]+)(?:px)?\s*\)$/, str(st.clip));
    return !!m && (+m[3] <= +m[1] || +m[2] <= +m[4]);
  }

  function boxOf(r) {
    return { left: r.left, top: r.top, right: r.left + r.width, bottom: r.top + r.height };
  }

  function intersect(a, b) {
    return {
      left: mathMax(a.left, b.left), top: mathMax(a.top, b.top),
      right: mathMin(a.right, b.right), bottom: mathMin(a.bottom, b.bottom),
    };
  }

  function isSameBox(a, b) {
    return a.left === b.left && a.top === b.top && a.right === b.right && a.bottom === b.bottom;
  }

  function isEmptyBox(b) { return b.right - b.left <= 0 || b.bottom - b.top <= 0; }

  function boxArea(b) { return isEmptyBox(b) ? 0 : (b.right - b.left) * (b.bottom - b.top); }

  /** !isEmptyBox(intersect(box, boxOf(r))), without allocating (it runs per element). */
  function boxMeetsRect(box, r) {
    return mathMin(box.right, r.left + r.width) - mathMax(box.left, r.left) > 0 &&
        mathMin(box.bottom, r.top + r.height) - mathMax(box.top, r.top) > 0;
  }

  /** Scroll offsets of `win`, read once per cache (layout reads cost on big pages). */
  function scrollOf(win, cache) {
    let s = mapGet(cache.scroll, win);
    if (!s) {
      s = { x: scrollX(win), y: scrollY(win) };
      mapSet(cache.scroll, win, s);
    }
    return s;
  }

  /**
   * Visibility of `el` in its own document: {visible, reason, rect, view, fixedRoot}. `rect` is the
   * local bounding rect (the children's union for display:contents-like zero boxes); for visible
   * elements `view` is the box its scrolling ancestors show and `fixedRoot` its fixed ancestor.
   * `quick` (scan): hidden elements get reason "hidden" and no rect, which saves their layout reads.
   */
  function visibilityOf(el, cache, quick) {
    const c = cache || newVisibilityCache();
    if (checkVisibility && !checkVisibility(el, VISIBILITY_CHECK)) {
      return quick ? { visible: false, reason: 'hidden', rect: null }
          : { visible: false, reason: hiddenReason(el), rect: getRect(el) };
    }
    const st = styleOf(el);
    if (!st) return { visible: false, reason: 'not rendered', rect: getRect(el) };
    if (!checkVisibility) {
      const own = st.display === 'none' ? 'display:none'
          : st.visibility !== 'visible' ? 'visibility:' + st.visibility : displayOrOpacityReason(st);
      if (own) return { visible: false, reason: own, rect: getRect(el) };
    }
    const parent = composedParent(el);
    const facts = parent ? ancestorFacts(parent, c) : NO_FACTS;
    if (facts.hidden) return { visible: false, reason: 'ancestor ' + facts.hidden, rect: getRect(el) };
    const position = st.position;
    if (isClippedAway(st, position)) return { visible: false, reason: CLIPPED, rect: getRect(el) };
    let rect = getRect(el);
    if (rect.width === 0 || rect.height === 0) rect = childrenUnion(el) || rect;
    if (rect.width < 1 || rect.height < 1 || (rect.width <= 1 && rect.height <= 1)) {
      return { visible: false, reason: 'zero size', rect };
    }
    const fixed = position === 'fixed';
    const clip = fixed ? INFINITE_BOX : facts.clip;
    if (clip !== INFINITE_BOX && !boxMeetsRect(clip, rect)) {
      return { visible: false, reason: 'clipped by an overflow:hidden ancestor', rect };
    }
    // Off the page's top or left edge, where no scrolling reaches; inside a scroll container that
    // can bring it into its box (a long list opened scrolled to its end: intl-tel-input's
    // countries), the container's box is what must be on the page.
    const scroll = scrollOf(windowOf(el), c);
    const offPage = (right, bottom) => right + scroll.x <= 0 || bottom + scroll.y <= 0;
    const view = !fixed && clip !== INFINITE_BOX && facts.view !== INFINITE_BOX ? facts.view : null;
    if (offPage(rect.left + rect.width, rect.top + rect.height) &&
        (!view || offPage(view.right, view.bottom) || !inScrollBox(el))) {
      return { visible: false, reason: 'positioned off-screen', rect };
    }
    return { visible: true, reason: '', rect, view: fixed ? INFINITE_BOX : facts.view,
      fixedRoot: fixed ? el : facts.fixed };
  }

  /** Inside a box that scrolls (overflow auto or scroll), below its document's root. */
  function inScrollBox(el) {
    for (let n = composedParent(el), depth = 0; n && depth < 40; n = composedParent(n), depth++) {
      const tag = tagOf(n);
      if (tag === 'body' || tag === 'html') return false;
      const st = styleOf(n);
      if (st && scrollsForChoices(n, st)) return true;
    }
    return false;
  }

  /** Why checkVisibility() said hidden, for messages (slow: only for elements that are hidden). */
  function hiddenReason(el) {
    const st = styleOf(el);
    if (!st) return 'not rendered';
    if (st.display === 'none') return 'display:none';
    if (st.visibility !== 'visible') return 'visibility:' + st.visibility;
    for (let n = composedParent(el); n; n = composedParent(n)) {
      const up = styleOf(n);
      const why = up ? displayOrOpacityReason(up) : '';
      if (why) return 'ancestor ' + why;
    }
    if (+st.opacity === 0) return 'opacity:0';
    return 'not rendered (closed <details>, content-visibility or not slotted)';
  }

  function childrenUnion(el) {
    let box = null;
    const kids = children(el);
    each(kids, (c) => {
      const r = getRect(c);
      if (r.width <= 0 || r.height <= 0) return;
      const b = boxOf(r);
      box = box ? {
        left: mathMin(box.left, b.left), top: mathMin(box.top, b.top),
        right: mathMax(box.right, b.right), bottom: mathMax(box.bottom, b.bottom),
      } : b;
    });
    return box ? { left: box.left, top: box.top, x: box.left, y: box.top,
      width: box.right - box.left, height: box.bottom - box.top } : null;
  }

  function isVisible(el) { return visibilityOf(el, newVisibilityCache()).visible; }

  // ===============================================================================================
  // 6. Accessible text (accname-like: aria-labelledby, aria-label, labels, placeholder, title, alt,
  //    value of input buttons, inner text), whitespace-collapsed and truncated.
  // ===============================================================================================
  const TEXT_MAX = 80;
  const BUTTON_INPUTS = { submit: 1, button: 1, reset: 1, image: 1 };
  const NON_TEXT_INPUTS = { checkbox: 1, radio: 1, submit: 1, button: 1, reset: 1, image: 1,
    file: 1, hidden: 1, range: 1, color: 1 };

  function byIdInRoot(el, id) {
    const root = getRootNode(el);
    try {
      const list = queryAll(root, '#' + cssEscape(id));
      return list.length ? list[0] : null;
    } catch (e) {
      return null;
    }
  }

  /**
   * The text of what names `el` by a `for` attribute in its root (a <label>, or a custom
   * element's label: Spectrum's sp-field-label), or ''.
   */
  function forLabelOf(el) {
    const id = elId(el);
    if (!id) return '';
    let list = [];
    try {
      list = queryAll(getRootNode(el), '[for="' + cssEscape(id) + '"]');
    } catch (e) {
      list = [];
    }
    const label = find(list, (l) => l !== el && isRenderedBox(l));
    return label ? labelText(label) : '';
  }

  /**
   * The text of the elements aria-labelledby names. `ownValue`: a custom select that names itself
   * among them (MUI's Select: "plan-label plan") reads its shown value there, which the scan
   * reports as its value: the other parts are its name, if there are any.
   */
  function labelledByText(el, ownValue) {
    const ids = strTrim(attr(el, 'aria-labelledby'));
    if (!ids) return '';
    const parts = [];
    const others = [];
    each(strSplit(ids, /\s+/), (id) => {
      const ref = byIdInRoot(el, id);
      if (!ref) return;
      // A rendered box's text leaves out what is hidden from assistive technology (accname 1.2,
      // 2A: Carbon's Toggle labels itself by a box holding its aria-hidden "Off"), and a <label>
      // what only a screen reader gets, as it does for its own field (the MultiSelect's label:
      // "Total items selected: 1 Read, To clear selection…" grew the name with each choice); a
      // hidden one still names (2B), by all its text.
      const shown = () => (tagOf(ref) === 'label' ? labelText(ref) : collapse(textWithoutControls(ref, 0)));
      const text = collapse(attr(ref, 'aria-label') || (isRenderedBox(ref) ? shown() : '') ||
          safeInnerText(ref) || textContent(ref));
      push(parts, text);
      if (!ownValue || !composedContains(el, ref)) push(others, text);
    });
    return collapse(join(others, ' ')) || collapse(join(parts, ' '));
  }

  /**
   * Text of a <label> (or any box) without the text of the controls inside it, as a person reads
   * it: a part only screen readers get (Carbon's "Total items
   * selected: 0." in a visually hidden span of the label) or a tooltip (an icon's SVG title) is
   * left out, unless it is all there is.
   */
  function labelText(label) {
    return collapse(textWithoutControls(label, 0, true)) || collapse(textWithoutControls(label, 0));
  }

  // What a screen reader hears of an option's state before its name ("Not Selected,": UI5's list
  // items say it in a hidden span): no part of what a person reads.
  const HIDDEN_STATE = /^(not selected|selected|unselected|checked|not checked|unchecked)[,.:;]?$/i;

  /** `text` less the state words an option says only to screen readers (HIDDEN_STATE). */
  function withoutHiddenState(el, text) {
    if (!text) return text;
    let hidden = null;
    try {
      hidden = elQsa(el, 'span, div');
    } catch (e) {
      return text;
    }
    for (let i = 0; i < hidden.length && i < 12; i++) {
      const said = collapse(textContent(hidden[i]));
      if (!said || !reTest(HIDDEN_STATE, said) || !screenReaderOnly(hidden[i])) continue;
      // At either end, with or without a space after it (WebKit's innerText puts none after a
      // box of no size: "Not Selected,Hotel").
      const rest = strSlice(text, 0, said.length) === said ? collapse(strSlice(text, said.length))
          : strSlice(text, text.length - said.length) === said ? collapse(strSlice(text, 0, text.length - said.length))
          : collapse(strReplace(' ' + text + ' ', ' ' + said + ' ', ' '));
      if (rest) return rest;
    }
    return text;
  }

  /** Clipped to nothing for the eye, there for a screen reader (.sr-only, .visually-hidden). */
  function screenReaderOnly(el) {
    const st = styleOf(el);
    if (!st) return false;
    const positioned = st.position === 'absolute' || st.position === 'fixed';
    return isClippedAway(st, st.position) ||
        (positioned && parseFloatSafe(st.width) <= 1 && parseFloatSafe(st.height) <= 1 && st.overflow === 'hidden');
  }

  function textWithoutControls(node, depth, seenOnly) {
    let s = '';
    for (let c = firstChild(node); c; c = nextSibling(c)) {
      const t = nodeType(c);
      if (t === 3) s += nodeValue(c);
      if (t !== ELEMENT_NODE || depth > 20) continue;
      const tag = tagOf(c);
      if (isFormControl(c) || tag === 'script' || tag === 'style') continue;
      // (Nor an icon's tooltip, its SVG <title>: Carbon's chevron "Open menu" in a Dropdown.)
      if (seenOnly && (tag === 'title' || screenReaderOnly(c))) continue;
      // (An icon's ligature, "arrow_drop_down", hidden from assistive technology: no label text.)
      if (attr(c, 'aria-hidden') === 'true') continue;
      // (A select's open list inside it, Fomantic UI's menu: choices offered, not its text.)
      if (isSelectMenu(c)) continue;
      if (tag === 'slot') {
        s += slottedTextWithoutControls(c, depth + 1);
        continue;
      }
      if (tag === 'img') s += ' ' + attr(c, 'alt') + ' ';
      else if (!isRenderedBox(c)) continue;
      else if (tag === 'br' || tag === 'p' || tag === 'div') s += ' ' + textWithoutControls(c, depth + 1, seenOnly) + ' ';
      else s += textWithoutControls(c, depth + 1, seenOnly);
    }
    return s;
  }

  /** The nodes a <slot> shows, through nested slots (assignedNodes flattened); none when empty. */
  function assignedTo(slot) {
    try {
      return B.slotAssignedNodes(slot, { flatten: true });
    } catch (e) {
      return [];
    }
  }

  /** The text a <slot> shows (its assigned nodes, else its fallback), without controls. */
  function slottedTextWithoutControls(slot, depth) {
    const assigned = assignedTo(slot);
    if (!assigned.length) return textWithoutControls(slot, depth);
    let s = '';
    each(assigned, (n) => {
      const t = nodeType(n);
      if (t === 3) s += nodeValue(n);
      else if (t === ELEMENT_NODE && !isFormControl(n) && isRenderedBox(n)) s += ' ' + textWithoutControls(n, depth) + ' ';
    });
    return s;
  }

  function isRenderedBox(el) {
    const st = styleOf(el);
    return !!st && st.display !== 'none' && st.visibility !== 'hidden';
  }

  function labelsOf(el) {
    let labels = null;
    try {
      labels = scanMemo ? indexedLabels(el) : el.labels;
    } catch (e) {
      labels = null;
    }
    if (labels && labels.length) return labels;
    const id = elId(el);
    let byFor = [];
    try {
      if (id) byFor = queryAll(getRootNode(el), 'label[for=' + cssString(id) + ']');
    } catch (e) {
      byFor = [];
    }
    if (byFor.length) return byFor;
    const host = hostLabelledThrough(el);
    return host ? labelsOf(host) : [];
  }

  /**
   * What names the custom element `el` does the work of, when `el` has no label of its own text:
   * the host's aria-labelledby, its <label for>, or its label attribute (Fluent UI's
   * fluent-text-input, its input in the shadow root behind an empty label of its own; its
   * fluent-dropdown, a light-DOM button role=combobox slotted as the control), or ''.
   */
  function labelledHostText(el) {
    let host = hostLabelledThrough(el);
    if (!host) {
      const up = parentElement(el);
      host = up && strIndexOf(tagOf(up), '-') > 0 &&
          queryAll(up, 'input, select, textarea, button, [role=combobox], [role=textbox]').length === 1 ? up : null;
    }
    return host ? labelledByText(host, false) || controlLabelText(host) || collapse(attr(host, 'label')) : '';
  }

  /**
   * The shadow host whose labels are `el`'s: a form-associated element labels its host, and a
   * person reads that label on the control inside (Material Web's md-checkbox: the <label> around
   * the host, the native checkbox in its shadow root). Only the root's first form control.
   */
  function hostLabelledThrough(el) {
    const tag = tagOf(el);
    if (tag !== 'input' && tag !== 'textarea' && tag !== 'select') return null;
    const root = getRootNode(el);
    if (!isShadowRoot(root)) return null;
    let first = scanMemo ? mapGet(scanMemo.firstControls, root) : undefined;
    if (first === undefined) {
      const all = queryAll(root, 'input, textarea, select');
      first = all.length ? all[0] : null;
      if (scanMemo) mapSet(scanMemo.firstControls, root, first);
    }
    return first === el ? srHost(root) : null;
  }

  /**
   * el.labels from an index of the labels of el's root by their control, built once per scan:
   * each `labels` read walks the whole tree.
   */
  function indexedLabels(el) {
    const root = getRootNode(el);
    let index = mapGet(scanMemo.labels, root);
    if (!index) {
      index = new B.Map();
      mapSet(scanMemo.labels, root, index);
      const all = queryAll(root, 'label');
      for (let i = 0; i < all.length; i++) {
        const control = labelControl(all[i]);
        if (!control) continue;
        const list = mapGet(index, control);
        if (list) push(list, all[i]);
        else mapSet(index, control, [all[i]]);
      }
    }
    return mapGet(index, el) || null;
  }

  /** The <label> of `el` that holds it (a floating label, a select's wrapper), or null. */
  function wrappingLabelOf(el) {
    return find(labelsOf(el), (l) => nodeContains(l, el));
  }

  function controlLabelText(el) {
    const parts = [];
    each(labelsOf(el), (l) => {
      // (A label's own aria-label is what it names the control, as Chromium reads it: Tailwind
      // UI's radio cards, "Enterprise" over the card's name, price and description.)
      const t = collapse(attr(l, 'aria-label')) || labelText(l);
      if (t) push(parts, t);
    });
    return collapse(join(parts, ' '));
  }

  /** Text of the flat tree: like innerText, but slotted content counts where it is shown. */
  function flatText(el) {
    let slots = null;
    try {
      slots = tagOf(el) === 'slot' ? [el] : mayHoldSlots(el) ? elQsa(el, 'slot') : null;
    } catch (e) {
      slots = null;
    }
    if (!slots || !slots.length) return simpleInnerText(el);
    return flatTextOf(el, 0);
  }

  const LIGATURE_ICONS = '[class*="material-icons"], [class*="material-symbols"]';

  /**
   * Text less the words of ligature icons in it (Material Icons: <i class="material-icons">send</i>
   * draws a glyph; a person reads "Save profile", not "Save profile send"). An icon alone is the
   * text (iconName and accessibleName read it as a glyph's name).
   */
  function withoutLigatureIcons(el, text) {
    if (!rootMayHold(el, 'ligatures', LIGATURE_ICONS)) return text;
    let rest = ' ' + text + ' ';
    each(elQsa(el, LIGATURE_ICONS), (icon) => {
      const word = collapse(textContent(icon));
      if (word && !contains_(word, ' ')) rest = strReplace(rest, ' ' + word + ' ', ' ');
    });
    rest = collapse(rest);
    return reTest(/[\p{L}\p{N}]/u, rest) ? rest : text;
  }

  /** False when no <slot> can be inside `el`: its root has none (known per scan). */
  function mayHoldSlots(el) { return rootMayHold(el, 'slots', 'slot'); }

  /**
   * False when nothing under `el` can match `selector`: its root holds none, known once per scan
   * (scanMemo[key]: root -> whether it holds any). True outside a scan: callers look themselves.
   */
  function rootMayHold(el, key, selector) {
    if (!scanMemo) return true;
    const root = getRootNode(el);
    let has = mapGet(scanMemo[key], root);
    if (has === undefined) {
      has = queryAll(root, selector).length > 0;
      mapSet(scanMemo[key], root, has);
    }
    return has;
  }

  /**
   * innerText, whitespace aside: an element holding a single text node without text-transform
   * shows that text (read without innerText's layout walk); callers collapse whitespace.
   */
  function simpleInnerText(el) {
    const only = firstChild(el);
    if (only && !nextSibling(only) && nodeType(only) === 3) {
      const st = styleOf(el);
      if (st && st.textTransform === 'none') return nodeValue(only);
    }
    return safeInnerText(el);
  }

  function flatTextOf(node, depth) {
    if (depth > 30) return '';
    const t = nodeType(node);
    if (t === 3) return nodeValue(node);
    if (t !== ELEMENT_NODE) return '';
    const tag = tagOf(node);
    if (tag === 'style' || tag === 'script') return '';
    if (tag === 'slot') {
      const assigned = assignedTo(node);
      if (assigned.length) return join(map(assigned, (n) => flatTextOf(n, depth + 1)), ' ');
    }
    let s = '';
    for (let c = firstChild(node); c; c = nextSibling(c)) s += ' ' + flatTextOf(c, depth + 1);
    return s;
  }

  /** Text of content: inner text, else alt of images, svg titles, aria-labels of children. */
  function contentText(el) {
    const t = collapse(flatText(el));
    if (t) return withoutLigatureIcons(el, t);
    let alt = '';
    try {
      each(elQsa(el, 'img[alt], [aria-label], svg title, [title]'), (c) => {
        if (alt) return;
        // (Not one nobody sees: CodeMirror's fold gutter keeps a hidden "Unfold line" marker.)
        const drawn = tagOf(c) === 'title' ? parentElement(c) : c;
        if (drawn && checkVisibility && !checkVisibility(drawn, { visibilityProperty: true })) return;
        alt = collapse(tagOf(c) === 'title' ? textContent(c)
            : attr(c, 'alt') || attr(c, 'aria-label') || attr(c, 'title'));
      });
    } catch (e) {
      alt = '';
    }
    return alt;
  }

  // An aria-label made of an id nobody set: it starts with a separator or "undefined"/"null", or
  // is a code-like token that ends in a field word ("country-searchbox").
  const MACHINE_LABEL = /^(?:[-_]|(?:undefined|null)[-_])|^[a-z0-9]+(?:[-_][a-z0-9]+)*[-_](?:searchbox|input|field|combobox|textbox)$/i;

  /**
   * Accessible name of `el` (not truncated): the accessible name proper (aria-labelledby,
   * aria-label, labels, content), then what a person reads near a control that has none.
   */
  function accessibleName(el, kind) {
    // A custom select's own label may be its shown value (select2 points aria-labelledby at it):
    // the label of the <select> it stands for comes first.
    const custom = kind === 'select' && tagOf(el) !== 'select';
    const original = custom ? originalSelectOf(el) : null;
    const originalName = original ? accessibleName(original, 'select') : '';
    if (originalName) return originalName;
    // tom-select moves the <select>'s label to its combobox input, inside the box people click.
    const combo = custom && tagOf(el) !== 'input' ? (original ? firstOf(el, 'input[role=combobox]') : hiddenComboboxOf(el)) : null;
    const comboName = combo ? accessibleName(combo, 'input') : '';
    if (comboName) return comboName;
    // A combobox box whose search field (out of sight until the box is active) is what a <label
    // for> points at: Vue-Multiselect gives its `id` to that input. The label names the box.
    if (custom && !combo && tagOf(el) !== 'input' && ariaRole(el) === 'combobox' && !attr(el, 'aria-labelledby')) {
      const field = firstOf(el, 'input');
      const fieldLabel = field ? controlLabelText(field) : '';
      if (fieldLabel) return fieldLabel;
    }
    // An ARIA checkbox or switch around a native one of its own, which its label names
    // (PrimeReact's InputSwitch: the input at opacity 0 over the drawn switch): one control.
    if (kind === 'checkbox' && tagOf(el) !== 'input' && !attr(el, 'aria-label') && !attr(el, 'aria-labelledby')) {
      const own = firstOf(el, 'input[type=checkbox], input[type=radio]');
      const ownLabel = own ? labelsOf(own)[0] : null;
      const ownName = ownLabel && !collapse(safeInnerText(el)) ? collapse(labelText(ownLabel)) : '';
      if (ownName) return ownName;
    }
    // A popup button over its host's options is named by the host's label (its own aria-label
    // reads the choice too: "Language, Choose one").
    const host = custom ? optionsHostOf(el) : null;
    // (What names the host by `for` comes first: Spectrum's sp-picker label="Choose a department"
    // is its placeholder; the sp-field-label for it reads "Department".)
    const hostLabel = host ? forLabelOf(host) || collapse(attr(host, 'label')) : '';
    if (hostLabel) return hostLabel;
    const byRef = labelledByText(el, custom);
    if (byRef) return byRef;
    // An editor (Quill's box, Trix's trix-editor, TinyMCE's frame body) is named as a field is:
    // its labels, or those of the control it stands in for, over its aria-label (TinyMCE's "Rich
    // Text Area"), which stays an alias; then the text before it; its placeholder last.
    // (Only text-entry kinds can be editors: the test is not paid for every button and link.)
    const editor = (kind === 'generic' || kind === 'input' || kind === 'textarea') && isEditorHost(el);
    const editorLabel = editor ? controlLabelText(el) || replacedFieldLabel(el) : '';
    if (editorLabel) return editorLabel;
    // (An aria-label a component builds from an id it was not given, Vue-Multiselect's
    // "-searchbox" or "undefined-searchbox", names nothing a person reads.)
    const ownAria = collapse(attr(el, 'aria-label'));
    const aria = reTest(MACHINE_LABEL, ownAria) ? '' : ownAria;
    const tag = tagOf(el);
    if (aria) {
      // A field's visible <label> is what a person reads; an aria-label that says something else
      // (Pikaday's "Use the arrow keys to pick a date") stays an alias. Not for a select's hidden
      // focus target: its label shows the choice too (Quasar's q-select).
      // A custom combobox a <label for> points at (PrimeVue's Select: its aria-label is its
      // placeholder) is named by that label too.
      if ((tag === 'input' || tag === 'select' || tag === 'textarea' || (kind === 'select' && ariaRole(el) === 'combobox')) &&
          !isFocusTargetCombobox(el)) {
        const label = controlLabelText(el);
        if (label && reTest(/[\p{L}\p{N}]/u, label) && lc(label) !== lc(aria)) return label;
      }
      return aria;
    }
    if (tag === 'input') {
      const type = lc(attr(el, 'type'));
      if (BUTTON_INPUTS[type]) {
        if (type === 'image') return collapse(attr(el, 'alt') || attr(el, 'value')) || 'Submit';
        // (HTML-AAM: a button input with no value is named by its title; jsGrid's row buttons
        // are `<input type=button title="Edit">` drawn as icons. Failing that, as other
        // controls with nothing to read: a tooltip, an icon's or an action class's words.)
        return collapse(attr(el, 'value')) ||
            (type === 'submit' ? 'Submit' : type === 'reset' ? 'Reset' : '') ||
            collapse(attr(el, 'title')) || tooltipText(el) || iconName(el) || actionClassWords(el);
      }
    }
    if (tag === 'input' || tag === 'select' || tag === 'textarea' || tag === 'meter' ||
        tag === 'progress' || (kind === 'select' && tag !== 'select')) {
      const label = controlLabelText(el) || labelledHostText(el);
      // A switch's label that only reads its two states (STATE_WORDS) names nothing: the text
      // before that label does.
      if (label && kind === 'checkbox' && reTest(STATE_WORDS, label)) {
        const before = nearbyText(wrappingLabelOf(el) || el);
        return before && !reTest(STATE_WORDS, before) ? before : label;
      }
      if (label) return label;
      // A custom select's box or text field is named by the label of the <select> it stands for.
      const original = tag !== 'select' ? originalSelectOf(el) : null;
      const originalLabel = original ? controlLabelText(original) : '';
      if (originalLabel) return originalLabel;
      const column = columnHeaderText(el);
      if (column) return column;
      if (kind === 'checkbox' || kind === 'radio') {
        const sibling = adjacentText(el);
        if (sibling) return sibling;
      }
      return nearbyText(el) || collapse(attr(el, 'placeholder') || attr(el, 'aria-placeholder') ||
          attr(el, 'data-placeholder') || attr(el, 'title')) || tooltipText(el) || describedByText(el) ||
          (tag === 'select' ? placeholderOption(el) : '');
    }
    if (editor) {
      // The text before it names a box made for writing in (empty, or saying what to write, or
      // a textbox); a block of text that is editable (a note, a table cell) is named by itself.
      const ph = collapse(attr(el, 'aria-placeholder') || attr(el, 'data-placeholder') || attr(el, 'placeholder'));
      const box = ph || !collapse(safeInnerText(el)) || ariaRole(el) === 'textbox';
      const named = (box ? nearbyText(el, true) : '') || ph || collapse(attr(el, 'title'));
      if (named) return named;
    }
    // An ARIA slider's text is its value (noUiSlider's tooltip inside the handle: "50 km"): it is
    // named as a field is, by its label or the text before it.
    if (kind === 'slider') {
      // (Or the label of the input it was drawn in place of: bootstrap-slider hides its input
      // beside the track it draws.)
      const label = withoutShownValue(controlLabelText(el) || replacedFieldLabel(el, true) || nearbyText(el), el);
      if (label) return label;
    }
    let content = contentText(el);
    if (kind === 'option' || kind === 'item') content = withoutHiddenState(el, content);
    // A <button> with nothing to read inside is named by its <label for> (Ant Design's Switch).
    if (tag === 'button' && !reTest(/[\p{L}\p{N}]/u, content)) {
      const label = controlLabelText(el);
      if (label) return label;
    }
    // An ARIA switch or checkbox with nothing to read inside is named by its <label> (a
    // form-associated element's: Material Web's md-radio), else by the text before it, as a
    // field is (Naive UI's n-switch below its form item's label).
    if ((kind === 'checkbox' || kind === 'radio') && !reTest(/[\p{L}\p{N}]/u, content)) {
      const around = customCheckableType(el, tag) ? closestLabel(el) : null;
      const near = controlLabelText(el) || (around ? labelText(around) : '') || nearbyText(el);
      if (near) return near;
    }
    // Material icons are ligature words (arrow_back): a person reads the glyph as "arrow back".
    if (contains_(content, '_') && firstOf(el, '[class*="material-icons"], [class*="material-symbols"]')) {
      content = collapse(strReplace(content, /_/g, ' '));
    }
    // Symbol-only content ("⎙", "›", an icon) says less than a title, a tooltip (an attribute, or
    // a short text the control points to with aria-describedby) or the icon's name; hidden
    // elements have no innerText.
    if (content && reTest(/[\p{L}\p{N}]/u, content)) return content;
    const described = describedByText(el);
    return collapse(attr(el, 'title')) || tooltipText(el) || (described.length <= 60 ? described : '') ||
        passwordToggleName(el) || stepButtonName(el) || iconName(el) || content || described || collapse(textContent(el)) || drawnGlyph(el) ||
        actionClassWords(el) ||
        menuTriggerName(el);
  }

  // What a person calls an opener of a menu that shows nothing to read (Radix's "..." icon
  // button in a table row, a kebab or meatball glyph drawn as a bare SVG).
  const MENU_TRIGGER_NAME = '…';
  // (At most three aliases: the engine reads "...", "⋯", "⋮" and "•••" as this name too.)
  const MENU_TRIGGER_ALIASES = ['more options', 'more actions', 'options'];

  /** The name of an unnamed opener of a menu (aria-haspopup menu or true), or ''. */
  function menuTriggerName(el) {
    const popup = lc(attr(el, 'aria-haspopup'));
    return popup === 'menu' || popup === 'true' ? MENU_TRIGGER_NAME : '';
  }

  const STEP_UP = /^(up|increment|increase|inc|plus|more)$/;
  const STEP_DOWN = /^(down|decrement|decrease|dec|minus|less)$/;

  /**
   * What the arrows beside a number field do (Mantine's NumberInput: two bare chevron buttons
   * with data-direction up/down in the field's box): "Increase" or "Decrease", from the
   * direction its data attribute or a class word names; '' for anything else.
   */
  function stepButtonName(el, name) {
    // The words first (cheap; every button of a scan is asked), the field only for a step word.
    // (Class words split at camelCase too: "incrementTrigger".)
    const named = name && reTest(/^(increment|increase|decrement|decrease)\b/i, name) ? name : '';
    // (A shadow part names the piece as data-part does: Vaadin's part="increase-button".)
    const said = attr(el, 'data-direction') + ' ' + attr(el, 'data-part') + ' ' + attr(el, 'part') + ' ' + named + ' ' +
        strReplace(attr(el, 'class'), /([a-z])([A-Z])/g, '$1 $2');
    const words = strSplit(lc(collapse(said)), /[\s_-]+/);
    let step = '';
    for (let i = 0; i < words.length && !step; i++) {
      if (reTest(STEP_UP, words[i])) step = 'Increase';
      else if (reTest(STEP_DOWN, words[i])) step = 'Decrease';
    }
    if (!step) return '';
    // (Through a shadow root: Vaadin's buttons sit in the field's shadow, its input in its light DOM.)
    for (let n = composedParent(el), depth = 0; n && depth < 3; n = composedParent(n), depth++) {
      if (firstOf(n, 'input[type=number], input[inputmode=numeric], input[inputmode=decimal], [role=spinbutton]')) return step;
    }
    return '';
  }

  /**
   * A slider's label less the value a heading row shows beside it ("Seats 1" over Radix's slider
   * at 1): the name stays while the value moves.
   */
  function withoutShownValue(label, el) {
    const values = [collapse(attr(el, 'aria-valuetext')), collapse(attr(el, 'aria-valuenow'))];
    for (let i = 0; i < values.length; i++) {
      const v = values[i];
      if (!v || v.length >= label.length) continue;
      const cut = label.length - v.length;
      // ("Seats1" where the row's two texts touch: a number after a letter.)
      const before = strSlice(label, cut - 1, cut);
      if (strSlice(label, cut) === v && (before === ' ' || (reTest(/^\d/, v) && reTest(/\p{L}/u, before)))) {
        return strTrim(strSlice(label, 0, cut));
      }
      if (strSlice(label, 0, v.length + 1) === v + ' ') return strTrim(strSlice(label, v.length + 1));
    }
    return label;
  }

  /**
   * What a control with nothing to read does in a password field's own box: it shows the password
   * (or hides it, once the field shows it as text). PrimeVue's, Ant Design's, Element Plus's eye.
   */
  function passwordToggleName(el) {
    for (let n = parentElement(el), depth = 0; n && depth < 2; n = parentElement(n), depth++) {
      const fields = queryAll(n, 'input:not([type=hidden])');
      if (!fields.length) continue;
      if (fields.length > 1) return '';
      const type = lc(attr(fields[0], 'type'));
      if (type === 'password') return 'Show password';
      const signals = attr(fields[0], 'class') + ' ' + attr(fields[0], 'name') + ' ' + elId(fields[0]) + ' ' + attr(fields[0], 'autocomplete');
      return type === 'text' && reTest(/password/i, signals) ? 'Hide password' : '';
    }
    return '';
  }

  // A close or remove control drawn as a cross.
  const CLOSE_GLYPH = /^[\u00d7\u2715\u2716\u2717\u2573xX]$/;
  // Action words of class names ("flatpickr-prev-month", "btn-close"): the last resort for a
  // control that nothing else names.
  const ACTION_WORD = /^(prev|previous|next|close|back|forward|more|menu|expand|collapse|toggle|delete|remove|edit|add|insert|plus|minus|search|clear|dismiss|play|pause|stop|share|download|upload|refresh|reload|settings|copy)$/;

  /**
   * The character a control with no text draws with its stylesheet (::before or ::after content):
   * Vue-Multiselect's tag remove control is an empty <i> whose "×" is CSS. Icon fonts' glyphs
   * (private-use code points) read as nothing: their class names them.
   */
  function drawnGlyph(el) {
    const pseudos = ['::before', '::after'];
    for (let i = 0; i < pseudos.length; i++) {
      const ps = pseudoStyleOf(el, pseudos[i]);
      const m = ps ? B.reExec(/^"([^"]{1,3})"$/, str(ps.content)) : null;
      if (m && reTest(/^[^\s\u{E000}-\u{F8FF}]+$/u, m[1])) return m[1];
    }
    return '';
  }

  function actionClassWords(el) {
    // (And what a data-action says: Air Datepicker's month arrows are div[data-action=next].)
    const tokens = strSplit(collapse(attr(el, 'class') + ' ' + attr(el, 'data-action')), ' ');
    for (let i = 0; i < tokens.length; i++) {
      const parts = strSplit(lc(tokens[i]), /[-_]+/);
      // (The last run of action words: Chosen's chip closer is "search-choice-close", a
      // "menu-toggle" stays one.)
      for (let j = parts.length - 1; j >= 0; j--) {
        if (reTest(ACTION_WORD, parts[j])) {
          while (j > 0 && reTest(ACTION_WORD, parts[j - 1])) j--;
          // (Not the kind of control the class also says: jsGrid's "jsgrid-insert-mode-button".)
          let end = parts.length;
          while (end - 1 > j && reTest(/^(button|btn|icon|ico|link|control)$/, parts[end - 1])) end--;
          return join(sliceArr(parts, j, end), ' ');
        }
      }
    }
    return '';
  }

  // Tooltip libraries keep the text in attributes (Bootstrap, tippy.js, balloon.css, hint.css...).
  const TOOLTIP_ATTRIBUTES = ['data-tooltip', 'data-bs-title', 'data-original-title', 'data-title',
    'data-tippy-content', 'data-tip', 'data-hint', 'data-balloon'];

  function tooltipText(el) {
    for (let i = 0; i < TOOLTIP_ATTRIBUTES.length; i++) {
      const v = collapse(attr(el, TOOLTIP_ATTRIBUTES[i]));
      if (v && v.length <= 200) return v;
    }
    return '';
  }

  function describedByText(el) {
    const ids = strTrim(attr(el, 'aria-describedby'));
    if (!ids) return '';
    const parts = [];
    each(strSplit(ids, /\s+/), (id) => {
      const ref = id ? byIdInRoot(el, id) : null;
      if (ref) push(parts, collapse(safeInnerText(ref) || textContent(ref)));
    });
    return truncate(collapse(join(parts, ' ')), 120);
  }

  // ----- names from the text beside a control -----
  // Where climbing for a field's label stops: boxes that hold more than one field's row.
  const LABEL_CLIMB_STOP = { tr: 1, tbody: 1, thead: 1, table: 1, form: 1, fieldset: 1, body: 1,
    html: 1, ul: 1, ol: 1, dl: 1, main: 1, section: 1, article: 1, nav: 1, header: 1, footer: 1,
    aside: 1, dialog: 1 };
  const HEADING_TAGS = { h1: 1, h2: 1, h3: 1, h4: 1, h5: 1, h6: 1 };
  const FIELD_SELECTOR = 'input:not([type=hidden]), select, textarea, button, [contenteditable=""], ' +
      '[contenteditable=true], [role=textbox], [role=combobox]';

  /**
   * The text a person reads as the label of a field that has none: an unassociated <label>, the
   * text or box right before it, or before its wrapper (a table cell, a form-group box) while
   * that wrapper holds no other field. Short texts only; a heading or another control in the way
   * ends the search.
   */
  // `editor`: for an editor's box, a toolbar before it is its own (Quill's, above the box), and a
  // field not drawn (Quill's link tooltip input) is no other field.
  function nearbyText(el, editor) {
    let node = el;
    // The control `el` is part of: itself, or the outermost box around it with a control's role
    // (Blueprint's MultiSelect: a combobox box around the tags, their remove buttons and the
    // input). Inside it, what comes before is the control's own (a chosen tag), no label.
    // (Or its box of chips: w2ui's enum field.)
    let own = (tagOf(el) === 'input' && chipBoxOf(el)) || el;
    for (let n = parentElement(el), level = 0; n && level < 6 && !LABEL_CLIMB_STOP[tagOf(n)]; n = parentElement(n), level++) {
      try {
        if (matches(n, FIELD_SELECTOR)) own = n;
      } catch (e) {
        break;
      }
    }
    // (Naive UI's field sits five boxes inside its form item, below the item's <label>.)
    for (let level = 0; level < 6; level++) {
      if (node === own || !nodeContains(own, node)) {
        const t = precedingLabel(node, editor);
        if (t !== null) return t;
      }
      const up = parentElement(node);
      if (!up || LABEL_CLIMB_STOP[tagOf(up)]) return '';
      let fields = null;
      try {
        fields = elQsa(up, FIELD_SELECTOR);
      } catch (e) {
        fields = null;
      }
      // Another control in the box: the text before it may be that one's. The control's own
      // parts (a radio group's radios, a tag's remove button) are no other control, nor is one
      // nobody sees (Radix's Slider keeps a hidden input beside its thumb).
      if (!fields) return '';
      for (let i = 0; i < fields.length; i++) {
        const f = fields[i];
        if (nodeContains(f, own) || nodeContains(own, f) || !isRenderedBox(f) || unseenField(f)) continue;
        return '';
      }
      node = up;
    }
    return '';
  }

  /** A text field drawn at opacity 0 (or in a box that is), which a person cannot see. */
  function unseenField(f) {
    // (Not a checkable, a select or a button: those are drawn by a box beside them at opacity 0.)
    const tag = tagOf(f);
    if ((tag !== 'input' || NON_TEXT_INPUTS[lc(attr(f, 'type'))]) && tag !== 'textarea') return false;
    if (checkVisibility) return !checkVisibility(f, VISIBILITY_CHECK) || laidUnder(f);
    // (A browser without checkVisibility, WPE WebKit's: the opacity of the field and 3 boxes up.)
    for (let n = f, depth = 0; n && depth < 4; n = parentElement(n), depth++) {
      if (transparentStyle(n)) return true;
    }
    return laidUnder(f);
  }

  /**
   * A text field laid under the page (a negative z-index) with no background of its own: the
   * value store of a field drawn in a box over it (w2ui's enum field: chips and a search input in
   * the box before it). A person sees and uses the box, never this field.
   */
  function laidUnder(f) {
    const tag = tagOf(f);
    if ((tag !== 'input' && tag !== 'textarea') || isNativeCheckable(f)) return false;
    const st = styleOf(f);
    if (!st || !(parseFloatSafe(st.zIndex) < 0)) return false;
    if (visibleColor(st.backgroundColor)) return false;
    // The box drawn over it: a sibling before it that covers most of it.
    const over = previousElementSibling(f);
    if (!over) return false;
    const r = getRect(f);
    const covered = boxArea(intersect(boxOf(r), boxOf(getRect(over))));
    return covered > 0 && covered >= 0.5 * r.width * r.height;
  }

  /** Label text before `node` among its siblings: a string (maybe '' to stop), or null to climb. */
  function precedingLabel(node, editor) {
    let elements = 0;
    for (let n = previousSibling(node); n && elements < 3; n = previousSibling(n)) {
      const nt = nodeType(n);
      if (nt === 3) {
        const t = collapse(nodeValue(n));
        if (t && reTest(/[\p{L}\p{N}]/u, t)) return labelish(t);
        continue;
      }
      if (nt !== ELEMENT_NODE) continue;
      // (What the page hides from assistive technology names nothing: a code editor's gutter of
      // line numbers before its lines.)
      if (attr(n, 'aria-hidden') === 'true') continue;
      if (editor && (ariaRole(n) === 'toolbar' || reTest(/(^|[\s_-])toolbar([\s_-]|$)/i, attr(n, 'class')))) continue;
      elements++;
      const tag = tagOf(n);
      if (tag === 'script' || tag === 'style' || tag === 'template' || tag === 'br') continue;
      if (HEADING_TAGS[tag] || isFormControl(n) || isEditable(n) || (tag === 'a' && hasAttribute(n, 'href')) ||
          looksLikeHeading(n)) {
        return '';
      }
      if (tag === 'label' && (labelControl(n) || labelsElsewhere(n, node))) return '';
      if (!isRenderedBox(n)) continue;
      if (firstOf(n, FIELD_SELECTOR + ', a[href]')) {
        // (A box that holds only a field nobody sees is a part of this one's drawing: w2ui's list
        // field keeps its search input at opacity 0 in a box laid over the field.)
        if (!firstOf(n, 'a[href]') && find(queryAll(n, FIELD_SELECTOR), (f) => !unseenField(f)) === null) continue;
        return '';
      }
      const t = labelText(n);
      if (!t) continue;
      return labelish(t);
    }
    return null;
  }

  /**
   * A <label for> naming an element other than `node` (or one around or inside it). One whose
   * `for` names nothing (PrimeReact's InputOtp drops the id its label points at) is read as a
   * person reads it: the label of what follows.
   */
  function labelsElsewhere(label, node) {
    const id = attr(label, 'for');
    const target = id ? byIdInRoot(label, id) : null;
    return !!target && !nodeContains(target, node) && !nodeContains(node, target);
  }

  /**
   * A title above a form ("Welcome back") is no label: a heading role, a title-like class, or
   * text set larger than the text around it (form fields have a smaller font of their own).
   */
  function looksLikeHeading(box) {
    if (ariaRole(box) === 'heading') return true;
    if (reTest(/(^|[\s_-])(title|heading|header|caption|subtitle|headline)([\s_-]|$)/i, attr(box, 'class'))) {
      return !drawnAsLabel(box);
    }
    const around = parentElement(box);
    const a = styleOf(box);
    const b = around ? styleOf(around) : null;
    return !!a && !!b && parseFloatSafe(a.fontSize) > 1.2 * parseFloatSafe(b.fontSize);
  }

  /**
   * A box drawn as the labels of the fields around it are (a <label> within four boxes up, of
   * the same size and weight): a person reads it as one, whatever its class says (PrimeReact's
   * docs title a radio group with a span.field-title styled as the form's labels).
   */
  function drawnAsLabel(box) {
    const st = styleOf(box);
    if (!st) return false;
    let up = parentElement(box);
    for (let level = 0; up && level < 4 && tagOf(up) !== 'body'; up = parentElement(up), level++) {
      const labels = elQsa(up, 'label');
      for (let i = 0; i < labels.length && i < 40; i++) {
        const l = labels[i];
        if (nodeContains(l, box) || nodeContains(box, l) || !isRenderedBox(l)) continue;
        const ls = styleOf(l);
        if (ls && ls.fontSize === st.fontSize && ls.fontWeight === st.fontWeight) return true;
      }
    }
    return false;
  }

  /** A label-like text: short (<= 60 characters, 8 words), without a trailing ":" or "*". */
  function labelish(t) {
    const clean = collapse(strReplace(t, /[\s:*\u00a0]+$/, ''));
    // A sentence ("Join our newsletter for exclusive offers.") introduces a form; it is no label.
    if (!clean || clean.length > 60 || strSplit(clean, ' ').length > 8 || reTest(/[.!?]$/, clean)) return '';
    return clean;
  }

  // ----- names of icons -----
  // Icon fonts name the glyph in a class (Font Awesome fa-trash, Bootstrap Icons bi-x-lg, Tabler
  // ti-edit, Material Design Icons mdi-delete, Boxicons bx-trash, Ionicons, Glyphicons, Feather,
  // Lucide, Octicons); SVG icons in data-icon (Font Awesome's SVG mode) or the sprite id of <use>;
  // Material icons in their ligature text (arrow_back).
  const ICON_PREFIX = /^(?:fa|bi|ti|mdi|bx|bxs|bxl|ion(?:-(?:ios|md))?|glyphicon|icon|feather|lucide|octicon|la|las|lar|lab|fe|ri|uil|gg|pi|si|oi)-(.+)$/;
  // Style and size classes of those families, not glyph names.
  const ICON_NOT_GLYPH = /^(?:fa-(?:solid|regular|light|thin|duotone|sharp|brands|classic|fw|lg|xs|sm|xl|2xs|2xl|[1-9]x|10x|spin|pulse|beat|fade|bounce|flip|shake|border|inverse|li|ul|stack|stack-[12]x|pull-(?:left|right|start|end)|rotate-[0-9a-z-]+|flip-[a-z]+|swap-opacity|width-auto|sharp-[a-z]+)|ti-(?:[1-9]x|lg|sm|xs|spin|fw)|mdi-(?:spin|rotate-[0-9]+|flip-[hv]|light|dark|inactive|[0-9]+px)|bx-(?:xs|sm|md|lg|spin|tada|flashing|burst|fade-[a-z]+|rotate-[0-9]+|flip-[a-z]+|border|border-circle|pull-[a-z]+)|icon-(?:sm|lg|xs|md|xl|[0-9]+|fw|white|inline|size-[a-z0-9]+)|ion-(?:ios|md)|la-(?:lg|[1-9]x|fw|spin))$/;
  // Size and tone classes beside a glyph ("bp6-icon-standard", "bp6-icon-large").
  const ICON_SIZE_WORDS = { standard: 1, large: 1, small: 1, muted: 1, sm: 1, md: 1, lg: 1, xs: 1, xl: 1, inline: 1 };
  const NOT_GLYPH_WORDS = { has: 1, with: 1, btn: 1, button: 1, nav: 1, sidebar: 1, card: 1, list: 1,
    item: 1, input: 1, form: 1, header: 1, social: 1, app: 1, brand: 1, text: 1, link: 1, menu: 0,
    left: 1, right: 1, small: 1, large: 1, big: 1, svg: 1, font: 1, custom: 1, ui: 1, base: 1,
    wrapper: 1, container: 1, label: 1, group: 1, image: 1, img: 1 };
  const ICON_SELECTOR = 'i, svg, span, [class*="icon" i], [class*="fa-"], [class*="bi-"], [data-icon], use, sl-icon, ion-icon, iconify-icon';
  const MATERIAL_CLASS = /(?:^|\s)material-(?:icons|symbols)[a-z-]*(?:\s|$)/;

  /** The glyph words of one icon element: "trash", "x", "pen to square", "arrow back"; else ''. */
  function iconWordsOf(node) {
    const tag = tagOf(node);
    // Icon elements (Shoelace's sl-icon, Ionicons' ion-icon, iconify-icon) name the glyph,
    // unless they say what they are for (iconElementLabel).
    if (reTest(/-icon$/, tag)) {
      const said = iconElementLabel(node);
      if (said) return said;
      const named = attr(node, 'name') || attr(node, 'icon');
      const m = B.reExec(/([a-z][a-z0-9-]*)$/i, named);
      if (m) return glyphWords(m[1]);
    }
    const cls = typeof getAttribute(node, 'class') === 'string' ? getAttribute(node, 'class') : '';
    if (cls && reTest(MATERIAL_CLASS, cls)) return collapse(strReplace(str(textContent(node)), /_/g, ' '));
    const dataIcon = attr(node, 'data-icon');
    if (dataIcon && reTest(/^[a-z][a-z0-9-]*$/i, dataIcon)) return glyphWords(dataIcon);
    if (tagOf(node) === 'use') {
      const ref = attr(node, 'href') || attr(node, 'xlink:href');
      const m = B.reExec(/#(?:icon[-_])?([a-z][a-z0-9_-]*)$/i, ref);
      if (m) return glyphWords(strReplace(m[1], /[-_]icon$/i, ''));
    }
    if (!cls) return '';
    const tokens = strSplit(collapse(cls), ' ');
    for (let i = 0; i < tokens.length; i++) {
      const t = lc(tokens[i]);
      if (reTest(ICON_NOT_GLYPH, t)) continue;
      const m = B.reExec(ICON_PREFIX, t);
      // "icon-button__icon" is a component's part, not a glyph.
      if (m && !(strSlice(t, 0, 5) === 'icon-' && NOT_GLYPH_WORDS[strSplit(glyphWords(m[1]), ' ')[0]])) {
        return glyphWords(m[1]);
      }
      // "bp6-icon-more" (Blueprint): a library's prefix, "icon", then the glyph.
      const infixed = B.reExec(/^[a-z][a-z0-9]*-icon-([a-z][a-z0-9-]*)$/, t);
      if (infixed && !ICON_SIZE_WORDS[infixed[1]]) return glyphWords(infixed[1]);
      const suffixed = B.reExec(/^([a-z][a-z0-9-]*?)[-_]icon$/, t);
      // (PrimeVue's "p-icon": a one-letter stem is a library's prefix, no glyph; so is a stem
      // ending in a version, Blueprint's "bp6-icon"; PrimeReact's "p-button-icon" is the icon of
      // a button: a short prefix, then a component's word. A prefix with a digit in it is a
      // library's too, and what follows it a part's abbreviation: w2ui's "w2ui-tb-icon", the box
      // of a toolbar button's icon.)
      const stem = suffixed ? strReplace(suffixed[1], /^[a-z]{1,2}\d?-/, '') : '';
      const unprefixed = strReplace(stem, /^[a-z]*\d[a-z0-9]*(-|$)/, '');
      // (A library's base class beside its glyph class, "w2ui-icon w2ui-icon-search": the glyph.)
      const based = suffixed && find(tokens, (o) => {
        if (strSlice(lc(o), 0, t.length + 1) !== t + '-') return false;
        const glyph = B.reExec(/^[a-z][a-z0-9]*-icon-([a-z][a-z0-9-]*)$/, lc(o));
        return !!glyph && !ICON_SIZE_WORDS[glyph[1]];
      }) !== null;
      if (suffixed && !based && suffixed[1].length > 1 && !reTest(/\d$/, suffixed[1]) && !NOT_GLYPH_WORDS[suffixed[1]] &&
          !NOT_GLYPH_WORDS[stem] && (unprefixed === stem || (unprefixed.length > 2 && !NOT_GLYPH_WORDS[unprefixed]))) {
        return glyphWords(unprefixed === stem ? suffixed[1] : unprefixed);
      }
    }
    return '';
  }

  /**
   * What an icon element says it is for, beside the glyph it draws: its label attribute
   * (Shoelace's sl-icon `label`, UI5's ui5-icon `accessible-name`), or the name or tooltip of the
   * SVG it draws in its shadow root (UI5 draws `accessible-name` as the SVG's aria-label, and as
   * its <title>, the tooltip a person sees on hover). UI5's DatePicker icon is "Open Picker",
   * not "appointment".
   */
  function iconElementLabel(node) {
    const said = collapse(attr(node, 'label') || attr(node, 'accessible-name'));
    if (said) return said;
    const root = shadowRoot(node);
    const svg = root ? firstOf(root, 'svg') : null;
    if (!svg) return '';
    const title = firstOf(svg, 'title');
    return collapse(attr(svg, 'aria-label') || (title ? textContent(title) : ''));
  }

  /** "x-lg" -> "x", "trash3-fill" -> "trash", "pen-to-square" -> "pen to square". */
  function glyphWords(name) {
    let n = lc(name);
    n = strReplace(n, /-(?:fill|filled|outline|outlined|line|lg|sm|xs|xl|alt|o|round|rounded|sharp|solid|regular|light|thin|duotone|twotone|bold|circle-fill|square-fill)$/g, '');
    n = strReplace(n, /-(?:fill|outline|lg|sm|alt|o)$/, '');
    n = strReplace(strReplace(n, /([a-z])\d+$/, '$1'), /-\d+$/, '');
    return collapse(strReplace(n, /[-_]+/g, ' '));
  }

  /** The name of the icon an icon-only control shows (its first icon with glyph words), or ''. */
  function iconName(el) {
    const own = iconWordsOf(el);
    if (own) return own;
    let list = null;
    try {
      list = elQsa(el, ICON_SELECTOR);
    } catch (e) {
      list = null;
    }
    const n = list ? mathMin(list.length, 12) : 0;
    for (let i = 0; i < n; i++) {
      const w = iconWordsOf(list[i]);
      // (Not one kept transparent: w2ui's list field keeps a search glyph at opacity 0 until a
      // person types.)
      if (w && !transparentStyle(list[i])) return w;
    }
    return '';
  }

  function transparentStyle(el) {
    const st = styleOf(el);
    return !!st && +st.opacity === 0;
  }

  /** A <select>'s placeholder: the text of its empty-valued first option ("Select a fruit"). */
  function placeholderOption(el) {
    try {
      const opts = selectOptions(el);
      if (opts.length && str(optionValue(opts[0])) === '') return collapse(optionText(opts[0]));
    } catch (e) {
      // no options to read
    }
    return '';
  }

  // A switch's label that reads its two states and nothing else ("Off On": Materialize's lever).
  const STATE_WORDS = /^(off on|on off|no yes|yes no|disabled enabled|enabled disabled|hide show|show hide)$/i;

  /** Text right after (or before) a checkbox that has no <label>: `<input type=checkbox> Remember`. */
  function adjacentText(el) {
    for (let n = nextSibling(el); n; n = nextSibling(n)) {
      const t = nodeType(n) === 3 ? collapse(nodeValue(n))
          : nodeType(n) === ELEMENT_NODE && !isFormControl(n) ? collapse(safeInnerText(n)) : null;
      if (t === null) break;
      if (t) return t;
    }
    return '';
  }

  function isFormControl(el) {
    const tag = tagOf(el);
    return tag === 'input' || tag === 'select' || tag === 'textarea' || tag === 'button';
  }

  /**
   * An editor's own box: an editing host (contenteditable, an editable frame body) or a
   * role=textbox element that is no native field (Trix's trix-editor).
   */
  function isEditorHost(el) {
    const tag = tagOf(el);
    if (tag === 'input' || tag === 'textarea' || tag === 'select') return false;
    if (ariaRole(el) === 'textbox') return true;
    if (!isEditable(el)) return false;
    const p = composedParent(el);
    return !(p && isEditable(p));
  }

  /**
   * The label of the form control an editor stands in for: the textarea (or input) a rich-text
   * editor hides (display:none) and draws its own box after (TinyMCE, CKEditor, CodeMirror),
   * right before the editor or before a box around it; an editable frame body looks from its
   * frame. '' when none.
   */
  function replacedFieldLabel(el, after) {
    const frames = tagOf(el) === 'body' ? frameChainOf(el) : null;
    let node = frames ? frames[frames.length - 1] : el;
    for (let level = 0; node && level < 6; level++, node = parentElement(node)) {
      const tag = tagOf(node);
      if (tag === 'body' || tag === 'form' || tag === 'html') return '';
      // (`after`: the hidden field may follow the drawing too, as bootstrap-slider's does.)
      // (Its own first: sliders drawn one after another each before their input.)
      const sides = after ? [nextElementSibling(node), previousElementSibling(node)] : [previousElementSibling(node)];
      for (let i = 0; i < sides.length; i++) {
        const side = sides[i];
        const stag = side ? tagOf(side) : '';
        if ((stag === 'textarea' || stag === 'input') && !isRenderedBox(side)) {
          const t = controlLabelText(side);
          if (t) return t;
        }
      }
    }
    return '';
  }

  /**
   * The header of the column a control sits in, when the control's table cell holds no text of
   * its own and nothing else labels it: a grid's editing and inserting rows (jsGrid, an editable
   * DataTable), a row's checkbox under "Married". A person reads the column's header above it,
   * not the cell before. The header row is the table's lowest one (thead's last row, else the
   * last row of th only before the body), or that of a header table of its own just before it
   * (jsGrid, scrolling DataTables), or an ARIA grid's row of column headers; it must line up
   * with the control's row cell for cell, and its cell over the control hold text and no control
   * (a "Select all" checkbox or a filter names no row). A form laid out in a table, whose row
   * has its own label (a th, or a cell of text ending in ":"), keeps that label.
   */
  function columnHeaderText(el) {
    let cell = null;
    for (let n = parentElement(el), level = 0; n && level < 3 && !cell; n = parentElement(n), level++) {
      const tag = tagOf(n);
      const role = ariaRole(n);
      if (tag === 'td' || role === 'gridcell' || role === 'cell') cell = n;
      else if (tag === 'tr' || tag === 'table' || role === 'row') return '';
    }
    if (!cell) return '';
    const skip = new B.Set();
    setAdd(skip, el);
    if (collapse(ownText(cell, skip))) return '';
    const row = parentElement(cell);
    if (!row || !(tagOf(row) === 'tr' || ariaRole(row) === 'row')) return '';
    const cells = rowCellsOf(row);
    const at = indexOf(cells, cell);
    if (at < 0) return '';
    // The row's own label before the control: a form laid out in a table.
    for (let i = 0; i < at; i++) {
      const c = cells[i];
      const text = collapse(safeInnerText(c));
      if (tagOf(c) === 'th' || ariaRole(c) === 'rowheader' || reTest(/:\s*$/, text)) return '';
    }
    const heads = headerCellsFor(row, cells);
    const head = heads ? heads[at] : null;
    if (!head || firstOf(head, FIELD_SELECTOR)) return '';
    const text = collapse(safeInnerText(head));
    return text.length <= 60 && reTest(/[\p{L}\p{N}]/u, text) ? text : '';
  }

  /** A row's cells: a <tr>'s own, or an ARIA row's cells and headers. */
  function rowCellsOf(row) {
    if (tagOf(row) === 'tr') return B.rowCells(row);
    return filter(B.children(row), (c) => {
      const role = ariaRole(c);
      return role === 'gridcell' || role === 'cell' || role === 'columnheader' || role === 'rowheader';
    });
  }

  /**
   * The header cells over `row`'s cells, one per cell, lined up (columnHeaderText), or null.
   * Found once per table and scan.
   */
  function headerCellsFor(row, cells) {
    const table = closestMatch(row, 'table, [role=grid], [role=treegrid], [role=table]', null);
    if (!table) return null;
    const memo = scanMemo && scanMemo.columnHeads;
    let header = memo ? mapGet(memo, table) : undefined;
    if (header === undefined) {
      header = headerRowOf(table);
      if (!header && tagOf(table) === 'table') {
        // A header table of its own just before the body's (up to three boxes up).
        for (let n = table, level = 0; n && level < 3 && !header; n = parentElement(n), level++) {
          const prev = previousElementSibling(n);
          const t = prev ? (tagOf(prev) === 'table' ? prev : firstOf(prev, 'table')) : null;
          if (t) header = headerRowOf(t);
        }
      }
      header = header || null;
      if (memo) mapSet(memo, table, header);
    }
    if (!header || header === row) return null;
    const above = rowCellsOf(header);
    if (above.length < 2 || above.length !== cells.length) return null;
    for (let i = 0; i < cells.length; i++) {
      const a = getRect(above[i]);
      const b = getRect(cells[i]);
      if (mathAbs(a.left - b.left) > 2 || mathAbs(a.right - b.right) > 2 || a.bottom > b.top + 1) return null;
    }
    return above;
  }

  /** A table's lowest header row: thead's last, else the last row of th only before the body. */
  function headerRowOf(table) {
    if (tagOf(table) !== 'table') {
      const head = firstOf(table, '[role=columnheader]');
      const row = head ? parentElement(head) : null;
      return row && ariaRole(row) === 'row' ? row : null;
    }
    const thead = B.tableHead(table);
    const rows = B.tableRows(table);
    let last = null;
    for (let i = 0; i < rows.length && i < 12; i++) {
      const r = rows[i];
      if (thead) {
        if (parentElement(r) !== thead) break;
        last = r;
        continue;
      }
      const rc = B.rowCells(r);
      if (!rc.length || find(rc, (c) => tagOf(c) !== 'th') !== null) break;
      last = r;
    }
    return last;
  }

  function isEditable(el) {
    try {
      return !!isContentEditable(el);
    } catch (e) {
      return false;
    }
  }

  // ===============================================================================================
  // 7. Classification (spec §4): which elements are interactive, their type, role, modifiers,
  //    attributes and state.
  // ===============================================================================================
  const INTERACTIVE_ROLES = { button: 1, link: 1, checkbox: 1, radio: 1, combobox: 1, switch: 1,
    tab: 1, menuitem: 1, menuitemcheckbox: 1, menuitemradio: 1, option: 1, textbox: 1,
    searchbox: 1, slider: 1, spinbutton: 1, listbox: 1, treeitem: 1 };
  // Widgets that are interactive when they can be selected (aria-selected present): rows and
  // cells of grids, tree grids and listbox-like tables.
  const SELECTABLE_ROLES = { row: 1, gridcell: 1 };

  function ariaRole(el) {
    const role = getAttribute(el, 'role');
    return role ? lc(strTrim(strSplit(role, ' ')[0] || '')) : '';
  }

  function isWidgetRole(el, role) {
    return !!INTERACTIVE_ROLES[role] || (!!SELECTABLE_ROLES[role] && hasAttribute(el, 'aria-selected'));
  }

  /**
   * Cheap first test, run on the elements CANDIDATE_SUPERSET matches: native controls, links,
   * editing hosts and ARIA widgets. Plain elements that a person can click (listeners,
   * cursor:pointer, tabindex, onclick) are candidates of another kind (`why`, section 9).
   */
  function isInteractiveCandidate(el, tag) {
    switch (tag) {
      case 'button': case 'select': case 'summary':
        return true;
      case 'textarea':
        return !isHelperField(el);
      case 'input':
        return lc(attr(el, 'type')) !== 'hidden' && !isHelperField(el);
      case 'a':
        return hasAttribute(el, 'href') || isWidgetRole(el, ariaRole(el));
      case 'body':
        // A frame's editable body is a field (TinyMCE's editor; a designMode document).
        return !!INTERACTIVE_ROLES[ariaRole(el)] || (ownerDocument(el) !== TOP_DOC && isEditable(el));
      case 'label': case 'html': case 'iframe': case 'frame':
        return !!INTERACTIVE_ROLES[ariaRole(el)];
      default:
        break;
    }
    if (isWidgetRole(el, ariaRole(el))) return true;
    if (hasAttribute(el, 'contenteditable')) return isEditingHost(el);
    return !!customCheckableType(el, tag);
  }

  /**
   * A field a page keeps for its own use, hidden from every person: read-only, out of the tab
   * order and aria-hidden (Monaco's IME textarea beside the input that takes the keys).
   */
  function isHelperField(el) {
    return attr(el, 'aria-hidden') === 'true' && attr(el, 'tabindex') === '-1' && hasAttribute(el, 'readonly');
  }

  /**
   * 'radio', 'checkbox' or 'option' for a custom element that is one with its role and state kept
   * in ElementInternals, which the DOM does not show (Material Web's md-radio: no role attribute,
   * no native input, a drawn circle in its shadow root; Fluent UI's fluent-option): its tag says
   * what it is. '' for anything else; a host with a native control or a role inside lets that be
   * the control.
   */
  function customCheckableType(el, tag) {
    if (strIndexOf(tag, '-') < 0 || hasAttribute(el, 'role')) return '';
    const type = reTest(/-radio$/, tag) ? 'radio' : reTest(/-(checkbox|switch)$/, tag) ? 'checkbox'
        : reTest(/-option$/, tag) ? 'option' : '';
    const root = type ? shadowRoot(el) : null;
    const inner = 'input, button, select, textarea, a[href], [role]:not([role=presentation]):not([role=none])';
    if (!root || queryAll(root, inner).length || queryAll(el, inner).length) return '';
    return type;
  }

  /** The <label> around `el`, up to 5 boxes up (a custom checkable the browser does not label). */
  function closestLabel(el) {
    for (let n = parentElement(el), depth = 0; n && depth < 5; n = parentElement(n), depth++) {
      if (tagOf(n) === 'label') return n;
    }
    return null;
  }

  /**
   * Whether such a custom checkable is checked: its custom state (:state(checked)), else what
   * its shadow root draws for it (a part classed "checked" or "selected": md-radio's container).
   * Its checked attribute is only the initial state (Material Web does not reflect it).
   */
  function customCheckableChecked(el) {
    try {
      if (matches(el, ':state(checked)')) return true;
    } catch (e) { /* no custom states in this browser */ }
    const root = shadowRoot(el);
    return !!root && queryAll(root, '.checked, .selected').length > 0;
  }

  function isEditingHost(el) {
    const v = lc(attr(el, 'contenteditable'));
    if (v === 'false') return false;
    const p = composedParent(el);
    return !(p && isEditable(p));
  }

  // Types beyond spec §4.1 (scanner/README.md, "Types"): what a person would call the thing.
  const ROLE_TYPES = { tab: 'tab', menuitem: 'menuitem', option: 'option', treeitem: 'item',
    gridcell: 'item', row: 'row', slider: 'slider' };

  /** Type per spec §4.1, and the widget types of ROLE_TYPES for explicit ARIA roles. */
  function typeOf(el, tag) {
    const role = ariaRole(el);
    if (tag === 'input') {
      const t = lc(attr(el, 'type'));
      if (t === 'checkbox') return 'checkbox';
      if (t === 'radio') return 'radio';
      if (BUTTON_INPUTS[t]) return 'button';
      // tom-select over a <select>; a read-only combobox input is a select box (Shoelace's sl-select).
      if (role === 'combobox' && (originalSelectOf(el) || hasAttribute(el, 'readonly'))) return 'select';
      // w2ui's list field: a text input drawn as a select, its menu opened by the box over it.
      if (reTest(/(^|\s)w2ui-select(\s|$)/, attr(el, 'class'))) return 'select';
      // The text field of a select component that filters its choices (Fomantic UI's "ui search
      // selection dropdown", its value in a hidden input): typing there chooses nothing; the
      // select is the control. (An address field in an "address-select" box holds no value.)
      if ((!t || t === 'text' || t === 'search') && !role) {
        // (Chosen's multiple box types into a field of its own, the select's stand-in.)
        const up = parentElement(el);
        if (up && tagOf(up) === 'li' && reTest(/(^|\s)search-field(\s|$)/, attr(up, 'class')) && originalSelectOf(el)) return 'select';
        // (So does w2ui's enum field, in its box of chips over the field that holds the value.)
        if (chipBoxOf(el)) return 'select';
        const component = selectComponentOf(el);
        if (component && queryAll(component, 'input[type=hidden], select').length) return 'select';
      }
      return 'input';
    }
    if (tag === 'select') return 'select';
    if (tag === 'textarea') return 'textarea';
    if ((tag === 'button' || role === 'button') && optionsHostOf(el)) return 'select';
    if (ROLE_TYPES[role]) return ROLE_TYPES[role];
    const custom = customCheckableType(el, tag);
    if (custom) return custom;
    // A button that is a switch or a checkbox (Ant Design's Switch) reads its state from aria-checked.
    if (tag === 'button' && (role === 'switch' || role === 'checkbox')) return 'checkbox';
    // (Ionic's alert draws its choices as <button role=radio>; Fluent UI's dropdown is a
    // <button role=combobox>: ARIA 1.2's select-only combobox.)
    if (tag === 'button' && role === 'radio') return 'radio';
    if (tag === 'button' && role === 'combobox') return 'select';
    // A button that opens a listbox and shows a choice is a select (Tailwind Plus's el-select,
    // Headless UI's Listbox); so is the toggle drawn for an out-of-sight <select> (Preline's
    // Advanced Select; not the chips' "Remove item" buttons of choices.js).
    // (Or a role=button box that does: Vaadin's vaadin-select-value-button.)
    if (((tag === 'button' && !role) || (role === 'button' && tag !== 'a' && tag !== 'input')) &&
        ((opensListbox(el) && reTest(/[\p{L}\p{N}]/u, str(safeInnerText(el)))) ||
        (tag === 'button' && hasAttribute(el, 'aria-expanded') && originalSelectOf(el)))) return 'select';
    if (tag === 'button' || tag === 'summary') return role === 'link' ? 'link' : 'button';
    if (tag === 'a' && hasAttribute(el, 'href')) return role === 'button' ? 'button' : 'link';
    switch (role) {
      case 'button': return 'button';
      case 'link': return 'link';
      case 'checkbox': case 'switch': case 'menuitemcheckbox': return 'checkbox';
      case 'radio': case 'menuitemradio': return 'radio';
      case 'textbox': case 'searchbox':
        return attr(el, 'aria-multiline') === 'true' ? 'textarea' : 'input';
      case 'combobox': case 'listbox': return 'select';
      default: return 'generic';
    }
  }

  /**
   * The box of chips a select's text field types in, drawn over the field that holds the value
   * (w2ui's enum field, div.w2ui-list), up to 4 boxes up; null for any other field.
   */
  function chipBoxOf(el) {
    for (let n = parentElement(el), depth = 0; n && depth < 4; n = parentElement(n), depth++) {
      if (reTest(/(^|\s)w2ui-list(\s|$)/, attr(n, 'class'))) return n;
    }
    return null;
  }

  /** The box with role=combobox a text input is the one text field of (ARIA 1.1), or null. */
  function comboboxBoxOf(el) {
    for (let n = parentElement(el), depth = 0; n && depth < 4; n = parentElement(n), depth++) {
      if (ariaRole(n) !== 'combobox' || isFormControl(n)) continue;
      let inputs = null;
      try {
        inputs = elQsa(n, 'input:not([type=hidden]), textarea');
      } catch (e) {
        return null;
      }
      return inputs.length === 1 && inputs[0] === el ? n : null;
    }
    return null;
  }

  /**
   * Whether a button opens a listbox: its own aria-haspopup, or that of the plain box around it
   * when it is the box's one control (Blueprint's Select puts the popup's ARIA on its popover
   * target, a div around the button).
   */
  function opensListbox(el) {
    if (attr(el, 'aria-haspopup') === 'listbox') return true;
    const up = parentElement(el);
    if (!up || attr(up, 'aria-haspopup') !== 'listbox' || ariaRole(up) || isFormControl(up)) return false;
    let fields = null;
    try {
      fields = elQsa(up, FIELD_SELECTOR);
    } catch (e) {
      return false;
    }
    return fields.length === 1 && fields[0] === el;
  }

  // Containers of suggestions and dropdown choices: a plain clickable inside is an option.
  const OPTION_CONTAINER = /(^|[\s_-])(ui-autocomplete|autocomplete|typeahead|suggest|suggestions|suggestion-list|combobox|select-dropdown|select-menu|dropdown-options|listbox)([\s_-]|$)/i;
  const LINK_CLASS = /(^|[\s_-])(link|href|anchor)([\s_-]|$)/i;

  /**
   * Type of a plain element a person can click (`why` != 0): `row` (a table row), `item` (a list
   * item or cell), `option` (inside a listbox or suggestion list), `link` (it looks like one:
   * underlined, a link class, a data-href; or an <a> without href), else `button`. Repeated
   * siblings become rows or items later (plainSiblings).
   */
  function plainType(el, tag) {
    const role = ariaRole(el);
    if (ROLE_TYPES[role]) return ROLE_TYPES[role];
    const custom = customCheckableType(el, tag);
    if (custom) return custom;
    if (hiddenComboboxOf(el)) return 'select';
    if (tag === 'tr' || role === 'row') return 'row';
    if (role === 'listitem' || role === 'cell') return 'item';
    // (Ant Design's options sit five levels inside .ant-select-dropdown: a virtual list's holders.)
    for (let n = parentElement(el), depth = 0; n && depth < 7; n = parentElement(n), depth++) {
      if (ariaRole(n) === 'listbox' || isSelectMenu(n)) return 'option';
      // (Not the box of a combobox's own field, "ui5-combobox-root": the arrow beside the field
      // that opens the list, with nothing to read, is no option.)
      if (reTest(OPTION_CONTAINER, attr(n, 'class')) &&
          !(firstOf(n, 'input[role=combobox]') && !reTest(/[\p{L}\p{N}]/u, str(safeInnerText(el))))) return 'option';
    }
    if (tag !== 'button' && tag !== 'a' && !isSelectMenu(el) && selectComponentOf(el)) return 'select';
    if (tag === 'a' || hasAttribute(el, 'data-href') || hasAttribute(el, 'data-url') ||
        hasAttribute(el, 'data-link') || reTest(LINK_CLASS, attr(el, 'class'))) {
      return 'link';
    }
    const st = styleOf(el);
    if (st && contains_(str(st.textDecorationLine || st.textDecoration), 'underline')) return 'link';
    if (tag === 'li' || tag === 'td' || tag === 'th' || tag === 'dt' || tag === 'dd') return 'item';
    return 'button';
  }

  // ----- custom selects (select2, choices.js, tom-select, ARIA comboboxes) -----

  // The class of a select component's root (n-select, q-select, el-select, v-select, multiselect,
  // custom-select): Naive UI's select has no ARIA role at all, nor has Fomantic UI's.
  const SELECT_COMPONENT_CLASS = /(^|\s)([a-z][a-z0-9]*-)?(multi)?select(\s|$)/i;
  // (Fomantic UI's and Semantic UI's is "ui selection dropdown"; Select2's span.selection is not.)
  const SELECTION_DROPDOWN = /(^|\s)selection(\s.*)?\sdropdown(\s|$)|(^|\s)dropdown(\s.*)?\sselection(\s|$)/i;

  /** Whether a class attribute is a select component's root's. */
  function isSelectComponentClass(cls) {
    return reTest(SELECT_COMPONENT_CLASS, cls) || reTest(SELECTION_DROPDOWN, cls);
  }

  /**
   * A floating box right inside a select component's root: its list of choices (Fomantic UI's
   * "menu" of "item"s, no roles).
   */
  function isSelectMenu(n) {
    const up = parentElement(n);
    return !!up && isSelectComponentClass(attr(up, 'class')) && tagOf(up) !== 'select' && isPositioned(n);
  }

  /** The root of the select component a plain clickable box belongs to (itself or 3 up), or null. */
  function selectComponentOf(el) {
    for (let n = el, depth = 0; n && depth < 4; n = parentElement(n), depth++) {
      if (isSelectComponentClass(attr(n, 'class')) && tagOf(n) !== 'select') return n;
    }
    return null;
  }

  /**
   * The native <select> a custom select widget stands for, or null: select2 puts its box right
   * after the hidden original, choices.js and tom-select wrap or precede it.
   */
  function originalSelectOf(el) {
    const memo = scanMemo && scanMemo.originals;
    if (memo && mapHas(memo, el)) return mapGet(memo, el);
    let found = null;
    for (let n = el, depth = 0; n && depth < 7 && !found; n = parentElement(n), depth++) {
      const cls = attr(n, 'class');
      if (reTest(/(^|\s)select2-container(\s|$)/, cls)) {
        const prev = previousElementSibling(n);
        if (prev && tagOf(prev) === 'select') found = prev;
      } else if (reTest(/(^|\s)choices(\s|$)/, cls)) {
        found = firstOf(n, 'select');
      } else if (reTest(/(^|\s)chosen-container(\s|$)/, cls)) {
        // Chosen draws its box right after the <select> it hides (id "<select's id>_chosen").
        const prev = previousElementSibling(n);
        if (prev && tagOf(prev) === 'select') found = prev;
      } else if (reTest(/(^|\s)bootstrap-select(\s|$)/, cls)) {
        // bootstrap-select moves the <select> into its wrapper, beside its toggle and menu.
        found = firstOf(n, 'select');
      } else if (reTest(/(^|\s)ts-wrapper(\s|$)/, cls)) {
        const prev = previousElementSibling(n);
        found = prev && tagOf(prev) === 'select' ? prev : firstOf(n, 'select');
      } else if (depth > 0 && depth <= 2 && tagOf(n) !== 'form' && tagOf(n) !== 'body' &&
          ((tagOf(el) === 'input' && ariaRole(el) === 'combobox' && hasAttribute(el, 'readonly')) ||
          (tagOf(el) === 'button' && !attr(el, 'role') && isSelectComponentClass(cls)))) {
        // Any library's: a read-only combobox field or a button in a wrapper with one <select>,
        // kept out of sight (Materialize's FormSelect clips it in a 0x0 box; Preline's Advanced
        // Select hides it); its <label for> stays on it.
        const selects = queryAll(n, 'select');
        if (selects.length === 1 && !visibilityOf(selects[0], null, true).visible) found = selects[0];
      }
    }
    if (memo) mapSet(memo, el, found);
    return found;
  }

  /**
   * The combobox text field a select box draws over (Ant Design's Select and Element Plus's keep a
   * read-only input role=combobox transparent inside the box a person clicks; Vuetify's v-select
   * one with inputmode=none that takes no pointer events), or null. The box is then the select,
   * named by that field's label.
   */
  function hiddenComboboxOf(el) {
    if (tagOf(el) === 'input') return null;
    // The root's transparent read-only comboboxes, found once per scan (most pages have none; a
    // query under every clickable box would cost a large page dearly).
    const root = getRootNode(el);
    const memo = scanMemo && scanMemo.hiddenCombos;
    let list = memo ? mapGet(memo, root) : undefined;
    if (!list) {
      list = filter(queryAll(root, 'input[role=combobox], input[aria-haspopup=listbox][readonly]'), (c) => {
        if (!isFocusTargetCombobox(c) && attr(c, 'inputmode') !== 'none') return false;
        const st = styleOf(c);
        return !isVisible(c) || (!!st && st.pointerEvents === 'none');
      });
      if (memo) mapSet(memo, root, list);
    }
    return find(list, (c) => composedContains(el, c));
  }

  /**
   * The element whose options a popup button chooses among (Ionic's ion-select: a transparent
   * button with aria-haspopup in its shadow root; the host holds the role=option elements), or
   * null. The button is then that host's select.
   */
  function optionsHostOf(el) {
    const popup = lc(attr(el, 'aria-haspopup'));
    if (!popup || popup === 'false') return null;
    const root = getRootNode(el);
    const host = isShadowRoot(root) ? srHost(root) : null;
    if (!host) return null;
    for (let c = firstElementChild(host); c; c = nextElementSibling(c)) {
      if (ariaRole(c) === 'option' || tagOf(c) === 'option') return host;
    }
    return null;
  }

  /**
   * What a popup button over its host's options shows as chosen: the text of the box it lies in,
   * less the host's label; nothing while that is the host's placeholder.
   */
  function optionsHostValue(el, host) {
    return textLessName(wrappingLabelOf(el) || parentElement(el), collapse(attr(host, 'label')),
        collapse(attr(host, 'placeholder')));
  }

  /** The text of `box` less `name` where it starts with it; '' when that is the placeholder. */
  function textLessName(box, name, placeholder) {
    let shown = box ? collapse(labelText(box)) : '';
    if (name && lc(strSlice(shown, 0, name.length)) === lc(name)) shown = collapse(strSlice(shown, name.length));
    return shown === placeholder ? '' : shown;
  }

  // The box a person clicks to open a custom select (tom-select's control; select2's and
  // choices.js's carry ARIA roles of their own).
  const CUSTOM_SELECT_BOX = /(^|\s)(ts-control|select2-selection|choices|chosen-single|chosen-choices)(\s|$)/;
  // The popups of custom selects (their search boxes filter options, they are no search forms).
  const CUSTOM_SELECT_POPUP = /(^|\s)(select2-dropdown|ts-dropdown|choices__list--dropdown|chosen-drop|bs-searchbox)(\s|$)/;

  function inCustomSelectPopup(el) {
    for (let n = parentElement(el), depth = 0; n && depth < 6; n = parentElement(n), depth++) {
      if (reTest(CUSTOM_SELECT_POPUP, attr(n, 'class'))) return true;
    }
    return false;
  }

  // Arrows at either end of a select's text: ↑ ↓ ▲ ▼ ▴ ▾ ⌄ ˅ (Unicode arrows and triangles).
  const DRAWN_ARROWS = /^[\u2190-\u21ff\u25b2-\u25bf\u2304\u02c5]\s*|\s*[\u2190-\u21ff\u25b2-\u25bf\u2304\u02c5]$/g;

  /** What a custom select shows as chosen: its rendered item text (not placeholders). */
  function customSelectValue(el) {
    const host = optionsHostOf(el);
    if (host) return optionsHostValue(el, host);
    const original = originalSelectOf(el);
    const shown = firstOf(el, '.select2-selection__rendered, .choices__list--single .choices__item, ' +
        '.ts-control > .item, [class*="single-value" i], [class*="selected-value" i], [class*="selection-item" i], ' +
        '[class*="selection-placeholder" i], [class*="select__placeholder" i], [class*="select__selection-text" i]') ||
        (originalSelectOf(el) && tagOf(el) === 'input' ? firstOf(parentElement(el) || el, '.item') : null);
    if (shown) {
      // (Element Plus shows the choice in its placeholder box too: faded, it is the placeholder.)
      const cls = attr(shown, 'class');
      if ((reTest(/placeholder/i, cls) && (!reTest(/selected/i, cls) || reTest(/transparent/i, cls))) ||
          hasAttribute(shown, 'data-placeholder')) {
        return '';
      }
      const text = collapse(labelText(shown));
      if (text) return strReplace(text, /\s*(Remove item|\u00d7)$/i, '');
    }
    if (original) {
      const i = selectSelectedIndex(original);
      const opts = selectOptions(original);
      if (i >= 0 && i < opts.length && str(optionValue(opts[i])) !== '') return collapse(optionText(opts[i]));
      return '';
    }
    // A multiple select's chips, each with its remove cross (Vue-Multiselect's tags): its
    // choices, said apart ("Vue.js, JavaScript": the chips' texts run together otherwise).
    if (tagOf(el) !== 'input') {
      // (Empty boxes and focusable ones only, found by the browser: a select's open list inside
      // it may hold hundreds of options, each read on every scan otherwise.)
      const crosses = filter(queryAll(el, 'i:empty, span:empty, b:empty, [tabindex]:not(input)'), (x) => removesChosenItem(x));
      if (crosses.length) {
        return join(filter(map(crosses, (x) => collapse(labelText(parentElement(x) || x))), (t) => !!t), ', ');
      }
    }
    if (tagOf(el) === 'input') {
      // A text field in a box of chips shows its choices as the chips (w2ui's enum: li-item).
      const chips = chipBoxOf(el);
      if (chips) return join(filter(map(queryAll(chips, '.li-item'), (c) => collapse(labelText(c))), (t) => !!t), ', ');
      // A hidden focus target shows nothing itself: its label shows the choice after the name.
      if (isFocusTargetCombobox(el) && !isVisible(el)) {
        const labels = labelsOf(el);
        if (labels.length) return textLessName(labels[0], collapse(attr(el, 'aria-label')), collapse(attr(el, 'placeholder')));
      }
      return str(inputValue(el));
    }
    // A box drawn over its combobox field shows its label besides a choice: no choice, no value.
    // Nor does a box marked as showing its placeholder (PrimeVue's Select: class p-placeholder).
    if (hiddenComboboxOf(el) || reTest(/(^|[\s_-])placeholder([\s_-]|$)/i, attr(el, 'class'))) return '';
    // Nor one whose text is all a placeholder: in a part marked as one (Fomantic UI's "default
    // text"), or its custom host's (Fluent UI's fluent-dropdown).
    const marked = firstOf(el, '.default.text, [class*="placeholder" i]');
    const owner = parentElement(el);
    const hostPlaceholder = owner && strIndexOf(tagOf(owner), '-') > 0 ? collapse(attr(owner, 'placeholder')) : '';
    // (An arrow drawn as a character beside the choice, Downshift's examples' "↓", is no part of it.)
    const drawn = collapse(strReplace(textLessName(el, '', hostPlaceholder), DRAWN_ARROWS, ' '));
    return marked && collapse(safeInnerText(marked)) === drawn ? '' : drawn;
  }

  const RE = {
    email: /e-?mail/i,
    username: /user ?name|user[_-]?id|\blogin\b|\buser\b|account name/i,
    search: /search|\bquery\b|\bfind\b|\bsuche\b|\brecherche\b|\bbuscar\b/i,
    tel: /phone|\btel\b|mobile|telephone/i,
    url: /website|\burl\b|homepage|web site/i,
    submitText: /^(sign ?in|log ?in|login|submit|continue|next|search|go|send|register|sign ?up|create account|save|subscribe|apply|confirm|ok|done|place order|checkout|pay)\b/i,
    primaryClass: /(^|[\s_-])(primary|cta|btn-main|button--main|is-primary|main-action)([\s_-]|$)/i,
  };

  /** Role per spec §4.2 from type, autocomplete, label/placeholder/name and context. */
  function roleOf(el, tag, type, name) {
    const t = lc(attr(el, 'type'));
    const ac = lc(attr(el, 'autocomplete'));
    if (type === 'input' || type === 'textarea') {
      if (t === 'password' || contains_(ac, 'password')) return 'password';
      if (t === 'email' || ac === 'email') return 'email';
      // (Quasar's filtering select is a type=search combobox named "Restaurant": no search box.)
      if ((t === 'search' && !(ariaRole(el) === 'combobox' && !reTest(RE.search, name + ' ' + attr(el, 'placeholder')))) ||
          ariaRole(el) === 'searchbox') {
        return 'search';
      }
      if (t === 'tel' || contains_(ac, 'tel')) return 'tel';
      if (t === 'url' || ac === 'url') return 'url';
      if (ac === 'username') return 'username';
      const signals = name + ' ' + attr(el, 'placeholder') + ' ' + attr(el, 'name') + ' ' + elId(el);
      if (reTest(RE.email, signals)) return 'email';
      if (reTest(RE.username, signals)) return 'username';
      // Only free text searches: a date or a number in a search form stays what it is (a trip
      // search's "Departure" date).
      const freeText = tag !== 'input' || !t || t === 'text' || t === 'search';
      if (freeText && (reTest(RE.search, signals) || attr(el, 'name') === 'q' || inSearchLandmark(el))) {
        return 'search';
      }
      if (reTest(RE.tel, signals)) return 'tel';
      if (reTest(RE.url, signals)) return 'url';
      return 'generic';
    }
    if (type === 'button') {
      if (isSubmitButton(el, tag, name)) return 'submit';
      if (isPrimaryStyled(el)) return 'primary';
      return 'generic';
    }
    if (type === 'link' && isPrimaryStyled(el)) return 'primary';
    return 'generic';
  }

  /** Inside a search landmark, or in a form whose action, class or id says search. */
  function inSearchLandmark(el) {
    const memo = scanMemo && scanMemo.search; // node -> the answer for its descendants
    const path = [];
    let answer = false;
    for (let n = composedParent(el); n; n = composedParent(n)) {
      if (memo && mapHas(memo, n)) {
        answer = mapGet(memo, n);
        break;
      }
      if (ariaRole(n) === 'search' || tagOf(n) === 'search') {
        answer = true;
        break;
      }
      if (tagOf(n) === 'form') {
        answer = reTest(/search/i, attr(n, 'action') + ' ' + attr(n, 'class') + ' ' + elId(n));
        break;
      }
      push(path, n);
    }
    if (memo) for (let i = 0; i < path.length; i++) mapSet(memo, path[i], answer);
    return answer;
  }

  function formOf(el) {
    try {
      const f = el.form;
      if (f && nodeType(f) === ELEMENT_NODE) return f;
    } catch (e) {
      // fall through
    }
    for (let n = composedParent(el); n; n = composedParent(n)) if (tagOf(n) === 'form') return n;
    return null;
  }

  /**
   * A key for the form `form` that stays the same across scans of the document: its id, its name,
   * else its position among the document's forms. Elements report it (`form`) so the engine can
   * tell which controls belong together (the form last typed into, the form to submit).
   */
  function formKey(form) {
    const memo = scanMemo && scanMemo.forms;
    if (memo && mapHas(memo, form)) return mapGet(memo, form);
    let key = '';
    const id = elId(form);
    if (id) key = '#' + id;
    else if (attr(form, 'name')) key = 'name=' + attr(form, 'name');
    else {
      // Its position among the document's forms: one index per document and scan.
      const doc = ownerDocument(form);
      let index = memo ? mapGet(memo, doc) : undefined;
      if (!index) {
        index = new B.Map();
        const all = queryAll(doc, 'form');
        for (let i = 0; i < all.length; i++) mapSet(index, all[i], i + 1);
        if (memo) mapSet(memo, doc, index);
      }
      const n = mapGet(index, form);
      key = n ? 'form' + n : fullSelector(form, frameChainOf(form));
    }
    if (memo) mapSet(memo, form, key);
    return key;
  }

  // Page regions (WAI-ARIA landmarks, and the class names sites give sidebars): the engine prefers
  // the main content's controls over navigation and sidebars (which search box, which form).
  const LANDMARK_TAGS = { main: 'main', nav: 'nav', aside: 'aside', search: 'search', dialog: 'dialog' };
  const LANDMARK_ROLES = { main: 'main', navigation: 'nav', complementary: 'aside', search: 'search',
    dialog: 'dialog', alertdialog: 'dialog', banner: 'header', contentinfo: 'footer' };

  function landmarkStep(n) {
    const tag = tagOf(n);
    const role = ariaRole(n);
    if (LANDMARK_ROLES[role]) return LANDMARK_ROLES[role];
    if (LANDMARK_TAGS[tag]) return LANDMARK_TAGS[tag];
    if (tag === 'header' || tag === 'footer') return '?' + tag; // a banner unless inside the content
    // A class token that names a sidebar ("sidebar", "main-sidebar", "bd-sidenav"; not
    // "sidebar-mini", a layout flag on <body>).
    if (tag !== 'body' && tag !== 'html' &&
        reTest(/(^|\s)([\w-]*-)?(sidebar|sidenav|side-nav)(\s|$)/i, attr(n, 'class'))) {
      return 'aside';
    }
    return '';
  }

  /** The nearest landmark around `el`: main, nav, aside, search, dialog, header, footer or ''. */
  function landmarkOf(el) {
    const memo = scanMemo && scanMemo.landmarks;
    const path = [];
    let found = '';
    let pending = ''; // a header/footer met on the way: a banner only if no content region holds it
    for (let n = composedParent(el); n; n = composedParent(n)) {
      if (memo && mapHas(memo, n)) {
        const up = mapGet(memo, n);
        found = pending && (up === 'main' || up === 'dialog') ? up : pending || up;
        pending = '';
        break;
      }
      const step = landmarkStep(n);
      if (step && step[0] === '?') {
        if (!pending) pending = strSlice(step, 1);
      } else if (step) {
        found = pending && step !== 'main' && step !== 'dialog' ? pending : step;
        pending = '';
        break;
      }
      if (!pending) push(path, n);
    }
    if (pending) found = pending;
    if (memo) for (let i = 0; i < path.length; i++) mapSet(memo, path[i], found);
    return found;
  }

  function isSubmitButton(el, tag, name) {
    const t = lc(attr(el, 'type'));
    if (tag === 'input') return t === 'submit' || t === 'image';
    if (tag === 'button') {
      if (t === 'submit' || (!t && formOf(el))) return !!formOf(el) || reTest(RE.submitText, name);
      if (t === 'reset') return false;
    }
    // Custom buttons and <button type=button>: submit-like text next to text fields, in a "form"
    // without <form> that has no native submit button of its own.
    if (!reTest(RE.submitText, name) || reTest(/\b(month|year|week|page|slide|image|photo|picture)\b/i, name)) {
      return false;
    }
    const scope = nearbyScope(el);
    return !!scope && !!firstOfComposed(scope, TEXT_FIELD_SELECTOR) &&
        !firstOfComposed(scope, 'button[type=submit], input[type=submit], input[type=image], form button:not([type])');
  }

  const TEXT_FIELD_SELECTOR = 'input:not([type=hidden]):not([type=checkbox]):not([type=radio])' +
      ':not([type=submit]):not([type=button]):not([type=image]):not([type=reset]), textarea';

  /** The element's form, else its closest ancestor at most 4 levels up (below <body>). */
  function nearbyScope(el) {
    const form = formOf(el);
    if (form) return form;
    let scope = el;
    for (let i = 0; i < 4; i++) {
      const up = composedParent(scope);
      if (!up || tagOf(up) === 'body' || tagOf(up) === 'html') break;
      scope = up;
    }
    return scope === el ? null : scope;
  }

  function firstOf(scope, selector) {
    try {
      const list = queryAll(scope, selector);
      return list.length ? list[0] : null;
    } catch (e) {
      return null;
    }
  }

  /**
   * The first match in `scope`, else in an open shadow root under it (nested ones too): the
   * fields of a custom element live in its shadow root, which querySelectorAll on the host
   * skips. A scan of the whole page passes the shadow roots its walk recorded (scanMemo.roots).
   */
  function firstOfComposed(scope, selector) {
    const direct = firstOf(scope, selector);
    if (direct) return direct;
    const roots = scanMemo && scanMemo.roots ? scanMemo.roots : shadowRootsUnder(scope);
    for (let i = 0; i < roots.length; i++) {
      const root = roots[i];
      if (!isShadowRoot(root) || !composedContains(scope, srHost(root))) continue;
      const hit = firstOf(root, selector);
      if (hit) return hit;
    }
    return null;
  }

  /** Open shadow roots of `scope` and of the elements under it, nested ones too. */
  function shadowRootsUnder(scope) {
    const out = [];
    const visit = (root) => each(queryAll(root, '*'), (h) => {
      const sr = shadowRoot(h);
      if (sr) {
        push(out, sr);
        visit(sr);
      }
    });
    const own = shadowRoot(scope);
    if (own) {
      push(out, own);
      visit(own);
    }
    visit(scope);
    return out;
  }

  function isPrimaryStyled(el) {
    // (text-primary, border-primary: a colour of the text or the border, not a primary button.)
    return reTest(RE.primaryClass, strReplace(attr(el, 'class'), /(^|\s)(text|border|link)-primary(?=\s|$)/g, ' '));
  }

  /** :disabled, asked only of the elements that can be (form controls, fieldsets, options). */
  function isNativelyDisabled(el, tag) {
    if (tag !== 'button' && tag !== 'input' && tag !== 'select' && tag !== 'textarea' &&
        tag !== 'fieldset' && tag !== 'option' && tag !== 'optgroup') {
      return false;
    }
    try {
      return matches(el, ':disabled');
    } catch (e) {
      return hasAttribute(el, 'disabled');
    }
  }

  function isDisabled(el) {
    if (attr(el, 'aria-disabled') === 'true') return true;
    try {
      if (matches(el, ':disabled')) return true;
    } catch (e) {
      return hasAttribute(el, 'disabled');
    }
    return false;
  }

  function isReadonly(el) {
    return hasAttribute(el, 'readonly') || attr(el, 'aria-readonly') === 'true';
  }

  function isRequired(el) {
    return hasAttribute(el, 'required') || attr(el, 'aria-required') === 'true';
  }

  /** Checked state for native and ARIA checkables; null for elements that cannot be checked. */
  function checkedState(el, tag, type) {
    if (tag === 'input' && (type === 'checkbox' || type === 'radio')) {
      // A switch drawn over a native checkbox shows its framework's state, which keeps aria-checked
      // (Element Plus cancels the box's own toggle and sets its model: the box itself may lag).
      const aria = ariaRole(el) === 'switch' ? attr(el, 'aria-checked') : '';
      if (aria === 'true' || aria === 'false') return aria === 'true';
      return !!inputChecked(el);
    }
    if (type === 'checkbox' || type === 'radio') {
      const v = attr(el, 'aria-checked') || attr(el, 'aria-pressed');
      if (!v && customCheckableType(el, tag)) return customCheckableChecked(el);
      return v === 'true' || v === 'mixed';
    }
    return null;
  }

  /** The element that has focus, through shadow roots and same-origin iframes. */
  function deepActiveElement(doc) {
    let a = docActiveElement(doc || TOP_DOC);
    for (;;) {
      if (!a) return null;
      const sr = shadowRoot(a);
      if (sr && srActiveElement(sr)) {
        a = srActiveElement(sr);
        continue;
      }
      const tag = tagOf(a);
      if (tag === 'iframe' || tag === 'frame') {
        const inner = safeContentDocument(a);
        const innerActive = inner && docActiveElement(inner);
        // (An editable body is a field: TinyMCE's editor is its frame's body.)
        if (innerActive && (innerActive !== docBody(inner) || isEditable(innerActive))) {
          a = innerActive;
          continue;
        }
      }
      return a;
    }
  }

  const MASK = '\u2022\u2022\u2022\u2022\u2022\u2022\u2022\u2022';

  function isPasswordField(el) {
    return tagOf(el) === 'input' && lc(attr(el, 'type')) === 'password';
  }

  function maskIfPassword(el, value) {
    return isPasswordField(el) && value ? MASK : value;
  }

  /** Raw current value of a value-bearing element, or null. */
  function rawValue(el, tag, type) {
    if (tag === 'input' && type !== 'button' && type !== 'checkbox' && type !== 'radio' && type !== 'select') {
      return str(inputValue(el));
    }
    if (tag === 'textarea') return str(textareaValue(el));
    if (tag === 'select') return str(selectValue(el));
    if (type === 'select') return customSelectValue(el);
    if (type === 'generic' && isEditable(el)) return editingHostText(el);
    // An ARIA slider's number (its shown text, a tooltip inside the handle, may say it otherwise).
    if (type === 'slider') return str(attr(el, 'aria-valuenow'));
    if (type === 'input' || type === 'textarea') return editingHostText(el);
    return null;
  }

  /** rawValue of a scanned item: a code editor's input reads what its view shows. */
  function itemRawValue(item) {
    return item.editorView && isConnected(item.proxy) ? editorViewText(item.proxy) : rawValue(item.el, item.tag, item.type);
  }

  /**
   * The text an editing host (or a textbox of boxes) holds: its text but what it hides from
   * assistive technology inside it (Slate draws its placeholder in the empty editor, aria-hidden).
   */
  function editingHostText(el) {
    let t = collapse(safeInnerText(el));
    if (!t) return t;
    each(queryAll(el, '[aria-hidden="true"]'), (h) => {
      const ht = collapse(safeInnerText(h));
      const at = ht ? strIndexOf(t, ht) : -1;
      if (at >= 0) t = collapse(strSlice(t, 0, at) + ' ' + strSlice(t, at + ht.length));
    });
    return t;
  }

  const RELEVANT_ATTRIBUTES = ['id', 'name', 'type', 'placeholder', 'href', 'aria-label', 'role',
    'autocomplete', 'title', 'alt', 'for', 'maxlength', 'minlength', 'pattern', 'min', 'max',
    'inputmode', 'aria-expanded', 'aria-haspopup', 'aria-controls', 'data-testid', 'target',
    'aria-valuemin', 'aria-valuemax'];

  /**
   * Every attribute of `el` as name -> value (a null-prototype object), read in one pass: a large
   * scan describes thousands of elements, each with a few attributes and many questions.
   */
  function attributeTable(el) {
    const t = objectCreate(null);
    let list = null;
    try {
      list = B.elAttributes(el);
    } catch (e) {
      list = null;
    }
    const n = list ? list.length : 0;
    for (let i = 0; i < n; i++) {
      const a = list[i];
      t[B.attrName(a)] = B.attrValue(a);
    }
    return t;
  }

  function relevantAttributes(el, tag, type, table) {
    const t = table || attributeTable(el);
    const out = {};
    for (let i = 0; i < RELEVANT_ATTRIBUTES.length; i++) {
      const v = t[RELEVANT_ATTRIBUTES[i]];
      if (v !== undefined && v !== '') out[RELEVANT_ATTRIBUTES[i]] = truncate(v, 200);
    }
    if (type === 'button' && (tag === 'input' || tag === 'button') && t.value) out.value = t.value;
    return out;
  }

  /** Options of a <select>: visible texts, capped at 20. */
  function selectOptionTexts(el) {
    const out = [];
    each(selectOptions(el), (o) => {
      if (out.length < 20) push(out, truncate(collapse(optionText(o)), TEXT_MAX));
    });
    return out;
  }

  /** Options of a custom select: its original <select>'s, else the options of its listbox. */
  function customOptionTexts(el) {
    const original = originalSelectOf(el);
    if (original) return filter(selectOptionTexts(original), (t) => t !== '');
    const ids = strTrim(attr(el, 'aria-controls') || attr(el, 'aria-owns'));
    const out = [];
    each(ids ? strSplit(ids, /\s+/) : [], (id) => {
      const box = id ? byIdInRoot(el, id) : null;
      let opts = null;
      try {
        opts = box ? elQsa(box, '[role=option]') : null;
      } catch (e) {
        opts = null;
      }
      each(opts, (o) => { if (out.length < 20) push(out, truncate(collapse(safeInnerText(o)), TEXT_MAX)); });
    });
    return out;
  }

  /**
   * Light classification for every candidate; selectors and keys come later, for returned ones.
   * `why` (section 9): 0 for native controls and ARIA widgets, else why a plain element counts.
   */
  function classify(el, ctx, vis, why) {
    const tag = tagOf(el);
    const type = why ? (reTest(CUSTOM_SELECT_BOX, attr(el, 'class')) && originalSelectOf(el) ? 'select'
        : plainType(el, tag)) : typeOf(el, tag);
    let name = accessibleName(el, type);
    let alias = '';
    // A calendar day labelled with its full date ("January 15, 2024") shows the day's number: a
    // person clicks "15" in the open picker; the date stays an alias.
    if (name.length > 5 && reTest(/\d/, name) && hasAttribute(el, 'aria-label')) {
      const shown = collapse(simpleInnerText(el));
      if (reTest(/^\d{1,2}$/, shown) && reTest(DATE_WORDS, name)) {
        alias = name;
        name = shown;
      }
    }
    // A slider whose label says its value too ("Discount % 10%": Webix's) is named without it:
    // the name stays when the value moves.
    if (type === 'slider' && name) {
      const tail = B.reExec(/^(.*\S)\s+(-?\d[\d.,]*)\s*(%|[a-z]{1,3})?$/i, name);
      if (tail && tail[2] === str(attr(el, 'aria-valuenow'))) name = tail[1];
    }
    const role = roleOf(el, tag, type, name);
    return { el, ctx, tag, type, role, name, text: truncate(name, TEXT_MAX), vis,
      proxy: null, id: 0, key: '', primary: false, why: why || 0, alias };
  }

  const DATE_WORDS = /\b(19|20)\d\d\b|\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b/i;
  const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August',
    'September', 'October', 'November', 'December'];

  /**
   * Other names a person might use for the element (aliases): the full date of a calendar day,
   * the title or tooltip when the name is something else, the icon it shows. At most three.
   */
  function aliasesOf(item, table) {
    const el = item.el;
    const t = table || attributeTable(el);
    const out = [];
    const add = (v) => {
      if (!v || v === item.name) return;
      const text = truncate(collapse(v), TEXT_MAX);
      if (text && text !== item.text && !includes(out, text) && lc(text) !== lc(item.name) && out.length < 3) {
        push(out, text);
      }
    };
    if (item.alias) add(item.alias);
    const placeholder = t['data-placeholder'] || t['aria-placeholder'] || t.placeholder;
    if (placeholder && isEditorHost(el)) add(placeholder);
    if (reTest(/^\d{1,2}$/, item.name)) add(dayDate(el));
    // A radio or checkbox of a group answers to its group's legend ("How often?").
    if (item.type === 'radio' || item.type === 'checkbox') add(legendOf(el) || radioGroupHeading(el));
    if (item.name === MENU_TRIGGER_NAME && menuTriggerName(el)) each(MENU_TRIGGER_ALIASES, add);
    // Named arrows of a number field ("increment value": Zag's, Chakra's) are its "Increase" and
    // "Decrease" too.
    if (item.type === 'button' && item.name !== 'Increase' && item.name !== 'Decrease') add(stepButtonName(el, item.name));
    // A named opener of a menu that shows only an icon (Carbon's OverflowMenu, "Options" by its
    // tooltip) is the "…" a person sees too.
    if (item.name !== MENU_TRIGGER_NAME && menuTriggerName(el) && !reTest(/[\p{L}\p{N}]/u, str(safeInnerText(el)))) {
      add(MENU_TRIGGER_NAME);
    }
    add(t['aria-label']);
    add(t.title);
    if (item.type !== 'input' && item.type !== 'textarea' && item.type !== 'select') {
      for (let i = 0; i < TOOLTIP_ATTRIBUTES.length; i++) add(t[TOOLTIP_ATTRIBUTES[i]]);
      // The glyph of an icon inside (a text-only element has no element children to look at).
      if (item.name.length <= 40 && (firstElementChild(el) || reTest(/icon|fa-|bi-|ti-|mdi-|bx-|material/i, t.class || ''))) {
        add(iconName(el));
      }
    }
    return out;
  }

  /**
   * The question of the group around a control: the <legend> of its <fieldset>, or the name of
   * the radiogroup it is slotted into (Web Awesome's wa-radio-group: a fieldset role=radiogroup
   * in the group's shadow root, labelled by a <label> whose slot falls back to the group's
   * label), or, for a radiogroup named by nothing, the text just before it or before the box
   * it is the one control of (Radix's RadioGroup under a plain heading), or ''.
   */
  function legendOf(el) {
    // (Eight boxes up: Vaadin's radio input is slotted through its button's and its group's shadows.)
    for (let n = flatParent(el), depth = 0; n && depth < 8; n = flatParent(n), depth++) {
      const role = ariaRole(n);
      if (role === 'radiogroup' || role === 'group') {
        const text = labelledByText(n, false) || collapse(attr(n, 'aria-label'));
        if (text) return text;
        if (role === 'group') continue;  // (an unnamed group, Base UI's input group, names nothing)
        // (Just before it, or before the box it is the one control of: Blueprint's FormGroup.)
        const before = nearbyText(n, false);
        if (before && before.length <= 60) return before;
      }
      if (tagOf(n) !== 'fieldset') continue;
      const legend = firstOf(n, 'legend');
      return legend ? collapse(labelText(legend)) : '';
    }
    return '';
  }

  /**
   * The text just before the smallest box that holds every radio of `el`'s group, where no
   * fieldset or radiogroup names it ("Billing cycle" over two radio cards), or ''.
   */
  function radioGroupHeading(el) {
    const name = tagOf(el) === 'input' && lc(attr(el, 'type')) === 'radio' ? attr(el, 'name') : '';
    if (!name) return '';
    const root = getRootNode(el);
    let byName = scanMemo ? mapGet(scanMemo.radioHeadings, root) : null;
    if (scanMemo && !byName) {
      byName = new B.Map();
      mapSet(scanMemo.radioHeadings, root, byName);
    }
    if (byName && mapHas(byName, name)) return mapGet(byName, name);
    const heading = groupHeadingOf(el, name, root);
    if (byName) mapSet(byName, name, heading);
    return heading;
  }

  function groupHeadingOf(el, name, root) {
    let all = [];
    try {
      all = queryAll(root, 'input[type=radio][name=' + cssString(name) + ']');
    } catch (e) {
      return '';
    }
    if (all.length < 2) return '';
    const holdsAll = (box) => find(all, (r) => !nodeContains(box, r)) === null;
    let box = parentElement(el);
    for (let depth = 0; box && depth < 6 && !holdsAll(box); depth++) box = parentElement(box);
    if (!box || !holdsAll(box) || tagOf(box) === 'form' || tagOf(box) === 'body') return '';
    const t = precedingLabel(box);
    return t && t.length <= 60 ? t : '';
  }

  /** The full date of a date-picker day cell from its data attributes (jQuery UI, Pikaday), or ''. */
  function dayDate(el) {
    let y = attr(el, 'data-pika-year');
    let m = attr(el, 'data-pika-month');
    let d = attr(el, 'data-pika-day');
    if (!y) {
      const cell = parentElement(el);
      if (cell && hasAttribute(cell, 'data-year') && hasAttribute(cell, 'data-month')) {
        y = attr(cell, 'data-year');
        m = attr(cell, 'data-month');
        d = attr(el, 'data-date') || collapse(simpleInnerText(el));
      }
    }
    const month = MONTHS[+m];
    return y && month && d ? month + ' ' + d + ', ' + y : '';
  }

  // ===============================================================================================
  // 8. Stable identity keys (background-semantic-diff.md): "type:role:context:label", from meaning,
  //    not position, with "#2", "#3" suffixes for duplicates in document order.
  // ===============================================================================================
  const CONTEXT_TAGS = { form: 1, dialog: 1, nav: 1, header: 1, footer: 1, aside: 1, main: 1,
    search: 1 };
  const CONTEXT_ROLES = { dialog: 1, alertdialog: 1, navigation: 1, banner: 1, contentinfo: 1,
    search: 1, form: 1, main: 1, complementary: 1, menu: 1, menubar: 1, tablist: 1, toolbar: 1 };

  function isContextElement(n) {
    return !!(CONTEXT_TAGS[tagOf(n)] || CONTEXT_ROLES[ariaRole(n)] ||
        attr(n, 'aria-modal') === 'true');
  }

  /**
   * Nearest context ancestor of `el`, or null. `memo` (Map node -> its nearest context
   * ancestor-or-self) lets the items of one scan share their climbs.
   */
  function contextElement(el, memo) {
    const path = [];
    let found = null;
    for (let n = composedParent(el); n; n = composedParent(n)) {
      if (mapHas(memo, n)) {
        found = mapGet(memo, n);
        break;
      }
      if (isContextElement(n)) {
        found = n;
        break;
      }
      push(path, n);
    }
    for (let i = 0; i < path.length; i++) mapSet(memo, path[i], found);
    return found;
  }

  /** The context part of a key for context element `c` (null: none). */
  function contextKey(c) {
    if (!c) return '';
    const tag = tagOf(c);
    const id = elId(c);
    if (id && !looksGenerated(id)) return tag + '#' + id;
    const nm = attr(c, 'name') || attr(c, 'aria-label') || labelledByText(c);
    if (nm) return tag + '[' + keyText(nm) + ']';
    return tag;
  }

  /** `collapsed`: `s` is whitespace-collapsed already (accessible names are). */
  function keyText(s, collapsed) {
    let t = lc(collapsed ? s : collapse(s));
    if (reTest(/\(\d+\)|\b\d+ (new|unread)\b|[:*]/, t)) {
      t = strReplace(t, /\(\d+\)|\b\d+ (new|unread)\b/g, '');
      t = collapse(strReplace(t, /[:*]+/g, ' '));
    }
    return truncate(t, 40);
  }

  function labelForKey(item) {
    const el = item.el;
    if (item.name) return keyText(item.name, true);
    if (item.type === 'input' || item.type === 'textarea' || item.type === 'select') {
      return keyText(attr(el, 'name') || elId(el) || attr(el, 'placeholder'));
    }
    if (item.type === 'link') return keyText(strReplace(attr(el, 'href'), /^https?:\/\/[^/]+/, ''));
    return keyText(attr(el, 'name') || elId(el));
  }

  // The key each element was given, with its base and the base's part before the label, for as
  // long as the document keeps the node.
  const nodeKeys = new B.WeakMap();
  // Controls that keep their key when only their name changes (below). Not links, options, rows
  // or items: a list that recycles its nodes shows another entry in the same node.
  const RENAMABLE_TYPES = { button: 1, input: 1, textarea: 1, select: 1, checkbox: 1, radio: 1 };

  /**
   * Keys for `items` (document order). Alike elements (same base) count in document order
   * ("#2", "#3"), except that an element keyed before keeps its key while its base is the same:
   * a toast inserted above another must not take the older one's key (and so its id). A control
   * the document keeps, in the same context, that only changed its name ("Show password" to "Hide
   * password", "Choose date" to "Choose date, selected date is Jun 20, 2025") keeps its key too:
   * the change report says it was renamed (`~ [7] button "Show password": text … → …`), its id
   * stays, and nothing seems to come and go.
   * `memo` ({seen, taken, contexts, contextKeys}) carries the counts on to elements registered
   * after the scan (query, find_text).
   */
  function assignKeys(items, memo) {
    const m = memo || newKeyMemo();
    const bases = [];
    const prefixes = [];
    each(items, (item, i) => {
      const frame = item.ctx.label ? item.ctx.label + '/' : '';
      const role = item.role === 'generic' ? '' : item.role;
      const c = contextElement(item.el, m.contexts);
      let ck = mapGet(m.contextKeys, c);
      if (ck === undefined) {
        ck = contextKey(c);
        mapSet(m.contextKeys, c, ck);
      }
      prefixes[i] = item.type + ':' + role + ':' + frame + ck + ':';
      bases[i] = prefixes[i] + labelForKey(item);
    });
    const fresh = [];
    each(items, (item, i) => {
      const known = wmGet(nodeKeys, item.el);
      const same = known && (known.base === bases[i] || (known.prefix === prefixes[i] &&
        RENAMABLE_TYPES[item.type] && !inRepeatedItem(item.el)));
      if (same && !mapHas(m.taken, known.key)) {
        item.key = known.key;
        mapSet(m.taken, known.key, true);
      } else {
        push(fresh, i);
      }
    });
    each(fresh, (i) => {
      const base = bases[i];
      let n = mapGet(m.seen, base) || 0;
      let key;
      do {
        n++;
        key = n > 1 ? base + '#' + n : base;
      } while (mapHas(m.taken, key));
      mapSet(m.seen, base, n);
      mapSet(m.taken, key, true);
      items[i].key = key;
      wmSet(nodeKeys, items[i].el, { base, key, prefix: prefixes[i] });
    });
    return m;
  }

  /**
   * True when the element is one of a list's alike items' controls: an ancestor (up to six up)
   * has two or more alike siblings that hold a control of the same tag and role. A table or a card
   * list that shows the next page in the same nodes renames "Delete Alice" to "Delete Carol":
   * another entry, not a renamed control. (Form rows hold other fields, not the same button.)
   */
  function inRepeatedItem(el) {
    const tag = tagOf(el);
    const role = attr(el, 'role');
    const sel = role && reTest(/^[a-z]+$/, role) ? tag + '[role="' + role + '"]' : tag;
    let a = el;
    for (let depth = 0; depth < 6; depth++) {
      const p = parentNode(a);
      if (!p || tagOf(a) === 'body' || tagOf(a) === 'form') return false;
      let twins = 0;
      each(childElements(p), (s) => {
        if (s === a || twins >= 2 || !alike(s, a)) return;
        if (composedMatches([s], sel, 1).length) twins++;
      });
      if (twins >= 2) return true;
      a = composedParent(a);
      if (!a) return false;
    }
    return false;
  }

  function newKeyMemo() {
    // seen: key base -> count; taken: keys given in this scan; contexts: node -> nearest context
    // ancestor-or-self; contextKeys: context element (or null) -> its key part.
    return { seen: new B.Map(), taken: new B.Map(), contexts: new B.Map(), contextKeys: new B.Map() };
  }

  // ===============================================================================================
  // 9. Collection: walk the document, open shadow roots and same-origin iframes in document order.
  // ===============================================================================================

  /** Where an element lives: `chain` of iframes from the top (outermost first), `label` the
   *  selector of the innermost iframe ('' in the top document). */
  function topContext() { return { chain: [], label: '' }; }

  function contextOf(el) {
    const chain = frameChainOf(el);
    const label = chain.length ? fullSelector(chain[chain.length - 1], sliceArr(chain, 0, chain.length - 1)) : '';
    return { chain, label };
  }

  /**
   * Walks `root` (document, shadow root or element) in document order, appending {el, ctx, why}
   * to `walk.candidates` (`why`: 0 for native controls and ARIA widgets, else the BY_* reasons a
   * plain element may be something to click); records shadow roots and frame documents in
   * `walk.roots`, iframes in `walk.frames`. Shadow and frame content follows its host element.
   */
  function collect(root, ctx, walk) {
    const all = queryAll(root, '*');
    const n = all.length;
    // Every element isInteractiveCandidate accepts, every frame and every element with a
    // tabindex or handler attribute matches this selector; one native query (same tree order as
    // `all`) spares the attribute reads on all other elements.
    const marked = queryAll(root, CANDIDATE_SUPERSET);
    const pointed = pointerCandidates(nodeType(root) === ELEMENT_NODE ? getRootNode(root) : root);
    let next = 0;
    // A whole document or shadow root: sort its popup and message boxes on the way.
    const sorter = nodeType(root) === ELEMENT_NODE ? null : newSignalSorter(root);
    if (!sorter) visitElement(root, ctx, walk, true, plainReasons(root, pointed));
    for (let i = 0; i < n; i++) {
      const el = all[i];
      const hit = next < marked.length && marked[next] === el;
      if (hit) next++;
      if (sorter) sorter.add(el);
      visitElement(el, ctx, walk, hit, plainReasons(el, pointed));
    }
    if (sorter) mapSet(walk.boxes, root, sorter.boxes);
  }

  const CANDIDATE_SUPERSET = 'a, button, input, select, textarea, summary, iframe, frame, [role], ' +
      '[onclick], [contenteditable], [tabindex], [onmousedown], [onpointerdown]';

  /** BY_LISTENER | BY_POINTER for `el` (attribute reasons come from visitElement). */
  function plainReasons(el, pointed) {
    return (wsHas(listened, el) ? BY_LISTENER : 0) | (pointed && setHas(pointed, el) ? BY_POINTER : 0);
  }

  /** `marked`: `el` may be a candidate or a frame (it matches CANDIDATE_SUPERSET). */
  function visitElement(el, ctx, walk, marked, why) {
    walk.total++;
    if (marked || why) {
      const tag = tagOf(el);
      if (marked && isInteractiveCandidate(el, tag)) push(walk.candidates, { el, ctx, why: 0 });
      else {
        const reasons = why | (marked ? attributeReasons(el) : 0);
        if (reasons && !NOT_CLICKABLE_TAGS[tag] && !structural(el)) push(walk.candidates, { el, ctx, why: reasons });
      }
      if (marked && (tag === 'iframe' || tag === 'frame')) visitFrame(el, ctx, walk);
    }
    const sr = shadowRoot(el);
    if (sr) {
      push(walk.roots, sr);
      collect(sr, ctx, walk);
    }
  }

  // ----- what else a person can click: listeners, cursor:pointer, tabindex, handler attributes --
  // Why a plain element (not a native control or ARIA widget) is a candidate: bits of `why`.
  const BY_LISTENER = 1; // click, mousedown, pointerdown (mouseup, pointerup, touchstart...) listeners
  const BY_POINTER = 2; // cursor:pointer that it does not inherit
  const BY_TABINDEX = 4; // tabindex >= 0
  const BY_HANDLER = 8; // onclick, onmousedown, onpointerdown attributes
  // Never units of their own: the page, labels (their control is), parts of native controls,
  // frames, metadata and the insides of SVG graphics.
  const NOT_CLICKABLE_TAGS = { html: 1, body: 1, head: 1, label: 1, option: 1, optgroup: 1,
    iframe: 1, frame: 1, script: 1, style: 1, link: 1, meta: 1, title: 1, template: 1, slot: 1,
    path: 1, g: 1, use: 1, circle: 1, rect: 1, line: 1, polyline: 1, polygon: 1, ellipse: 1,
    text: 1, tspan: 1, defs: 1, symbol: 1, mask: 1, clippath: 1, lineargradient: 1, stop: 1,
    br: 1, hr: 1, col: 1, colgroup: 1, source: 1, track: 1, area: 1, map: 1, dialog: 1, form: 1,
    fieldset: 1, legend: 1, main: 1, nav: 1, header: 1, footer: 1, aside: 1, section: 1, article: 1,
    table: 1, thead: 1, tbody: 1, tfoot: 1, ul: 1, ol: 1, dl: 1, pre: 1, code: 1, blockquote: 1,
    h1: 1, h2: 1, h3: 1, h4: 1, h5: 1, h6: 1, p: 1 };
  // Roles of structure and documents: focusable for reading (tabindex=0 on a tab panel, a
  // scrollable region), not something to click.
  const STRUCTURE_ROLES = { region: 1, main: 1, article: 1, document: 1, tabpanel: 1, group: 1,
    dialog: 1, alertdialog: 1, application: 1, log: 1, status: 1, alert: 1, marquee: 1, timer: 1,
    feed: 1, figure: 1, img: 1, list: 1, table: 1, grid: 1, treegrid: 1, tree: 1, tablist: 1,
    menu: 1, menubar: 1, toolbar: 1, navigation: 1, banner: 1, contentinfo: 1, complementary: 1,
    search: 1, form: 1, presentation: 1, none: 1, heading: 1, paragraph: 1, tooltip: 1,
    separator: 1, scrollbar: 1, progressbar: 1, meter: 1, note: 1, math: 1, definition: 1,
    term: 1, listbox: 1, radiogroup: 1, rowgroup: 1, columnheader: 1, rowheader: 1 };

  /** A box of structure (a dialog, a region, a list...): never a plain clickable itself. */
  function structural(el) {
    return !!STRUCTURE_ROLES[ariaRole(el)] || getAttribute(el, 'aria-modal') === 'true';
  }

  /** BY_TABINDEX | BY_HANDLER from the attributes of an element CANDIDATE_SUPERSET matched. */
  function attributeReasons(el) {
    let why = 0;
    const ti = getAttribute(el, 'tabindex');
    if (ti !== null && +ti >= 0) why |= BY_TABINDEX;
    if (hasAttribute(el, 'onclick') || hasAttribute(el, 'onmousedown') || hasAttribute(el, 'onpointerdown')) {
      why |= BY_HANDLER;
    }
    return why;
  }

  // The listener registry (scanner/listeners.js) runs in the page's main world and tells this
  // world, over DOM events on a per-session channel, which elements have press listeners.
  const listened = new B.WeakSet();
  const registryDocs = new B.WeakSet(); // documents whose registry this scanner has asked

  function channelName() {
    let c = '';
    try {
      c = G.__lemmascope_channel;
    } catch (e) {
      c = '';
    }
    return typeof c === 'string' && reTest(/^[a-z0-9]{4,64}$/, c) ? c : '';
  }

  function markedTarget(e) {
    const path = B.eventComposedPath(e);
    return path && path.length ? path[0] : null;
  }

  function onListenerOn(e) {
    const t = markedTarget(e);
    if (t) wsAdd(listened, t);
  }

  function onListenerOff(e) {
    const t = markedTarget(e);
    if (t) wsDelete(listened, t);
  }

  /**
   * Brings `listened` up to date for `doc`: the registry answers the query synchronously, inside
   * dispatchEvent, with one event per element registered since the last query (all of them the
   * first time this scanner asks).
   */
  function syncListeners(doc) {
    const ch = channelName();
    if (!ch || !doc) return;
    try {
      const fresh = !wsHas(registryDocs, doc);
      if (fresh) {
        addListener(doc, ch + '-on', onListenerOn, true);
        addListener(doc, ch + '-off', onListenerOff, true);
        wsAdd(registryDocs, doc);
      }
      askRegistry(doc, doc, ch + (fresh ? '-qa' : '-q'));
    } catch (e) {
      // no registry here: listeners stay unknown, the other signals still count
    }
  }

  /** Dispatches the registry query `type` on `target`; the registry answers inside the dispatch. */
  function askRegistry(doc, target, type) {
    // Made by the document itself with captured methods: a page world's Event may be replaced,
    // and constructors of a detached pristine realm do not work.
    const query = B.docCreateEvent(doc, 'Event');
    B.eventInit(query, type, false, false);
    dispatchEvent(target, query);
  }

  /**
   * Asks the registry `<channel>-<question>` on `target` and returns which of `answers` it gave
   * (`<channel>-<answer>` on `doc`, synchronously, inside the dispatch); null when no registry
   * answers.
   */
  function askRegistryFor(doc, target, question, answers) {
    const ch = channelName();
    if (!ch) return null;
    let answer = null;
    const handlers = [];
    each(answers, (a) => { handlers[handlers.length] = [ch + '-' + a, () => { answer = a; }]; });
    try {
      each(handlers, (h) => addListener(doc, h[0], h[1], true));
      askRegistry(doc, target, ch + '-' + question);
    } catch (e) {
      answer = null;
    } finally {
      each(handlers, (h) => removeListener(doc, h[0], h[1], true));
    }
    return answer;
  }

  // cursor:pointer. Computed styles for every element would cost a scan dearly; the rules that
  // set it are few: their selectors (dynamic pseudo-classes and pseudo-elements dropped) find
  // the elements, and each is then confirmed by its computed style. Inline styles count too.
  // Style sheets a page may not read (cross-origin without CORS) are not seen.
  const sheetPointerMemo = new B.WeakMap(); // sheet -> {length, selectors}
  const DYNAMIC_PSEUDO = /::?(before|after|marker|placeholder|selection|first-line|first-letter|backdrop|file-selector-button|-webkit-[a-z-]+|-moz-[a-z-]+)\b|:(hover|focus-visible|focus-within|focus|active|visited|link|any-link)\b/gi;

  /** Selectors of the rules in `sheet` (and its @media/@supports/@layer groups) that set cursor:pointer. */
  function sheetPointerSelectors(sheet) {
    let rules = null;
    try {
      rules = B.sheetRules(sheet);
    } catch (e) {
      return null; // cross-origin
    }
    if (!rules) return null;
    const memo = wmGet(sheetPointerMemo, sheet);
    if (memo && memo.length === rules.length) return memo.selectors;
    const selectors = [];
    const visit = (list, depth) => {
      for (let i = 0; i < list.length; i++) {
        const rule = list[i];
        let sel = null;
        try {
          sel = B.ruleSelector(rule);
        } catch (e) {
          sel = null;
        }
        if (typeof sel === 'string') {
          let cursor = '';
          try {
            cursor = B.ruleStyle(rule).cursor;
          } catch (e) {
            cursor = '';
          }
          if (cursor === 'pointer') {
            const clean = strTrim(strReplace(sel, DYNAMIC_PSEUDO, ''));
            if (clean && !reTest(/^[>+~]|[>+~,]\s*$|,\s*[>+~]|\(\s*\)/, clean)) push(selectors, clean);
          }
          continue;
        }
        let inner = null;
        try {
          inner = depth < 4 ? B.groupRules(rule) : null;
        } catch (e) {
          inner = null;
        }
        if (inner && inner.length) visit(inner, depth + 1);
      }
    };
    visit(rules, 0);
    wmSet(sheetPointerMemo, sheet, { length: rules.length, selectors });
    return selectors;
  }

  /** The elements of `root` that a style rule or inline style may give cursor:pointer (a Set), or null. */
  function pointerCandidates(root) {
    const memo = scanMemo ? scanMemo.pointed : null;
    if (memo && mapHas(memo, root)) return mapGet(memo, root);
    const found = pointerCandidatesOf(root);
    if (memo) mapSet(memo, root, found);
    return found;
  }

  function pointerCandidatesOf(root) {
    const isDoc = nodeType(root) === DOCUMENT_NODE;
    if (!isDoc && !isShadowRoot(root)) return null; // `within` scans: the document's own pass is skipped
    const selectors = ['[style*="cursor"]'];
    const addSheets = (list) => {
      const n = list ? list.length : 0;
      for (let i = 0; i < n; i++) {
        const sels = sheetPointerSelectors(list[i]);
        if (sels) for (let j = 0; j < sels.length; j++) push(selectors, sels[j]);
      }
    };
    try {
      addSheets(isDoc ? B.docStyleSheets(root) : B.srStyleSheets(root));
      addSheets(isDoc ? B.docAdoptedSheets(root) : B.srAdoptedSheets(root));
    } catch (e) {
      // no style sheets here
    }
    const found = new B.Set();
    const addAll = (list) => { for (let i = 0; i < list.length; i++) setAdd(found, list[i]); };
    try {
      addAll(queryAll(root, join(selectors, ', ')));
    } catch (e) {
      // One selector this engine does not know spoils the list: query them one by one.
      each(selectors, (sel) => {
        try {
          addAll(queryAll(root, sel));
        } catch (ignored) {
          // not a selector here
        }
      });
    }
    return found.size ? found : null;
  }

  function visitFrame(iframe, ctx, walk) {
    const doc = safeContentDocument(iframe);
    const info = { iframe, ctx, doc };
    push(walk.frames, info);
    if (!doc || !docElement(doc)) return;
    const chain = sliceArr(ctx.chain, 0, ctx.chain.length);
    push(chain, iframe);
    const inner = { chain, label: fullSelector(iframe, ctx.chain) };
    if (!isVisible(iframe) && !walk.includeHidden) return;
    push(walk.roots, doc);
    syncListeners(doc);
    collect(doc, inner, walk);
  }

  // ===============================================================================================
  // 10. Element map (spec §6): ids of the last scan -> live references.
  // ===============================================================================================
  // Controls the browser reported invalid (the `invalid` event of a submit attempt), for engines
  // without :user-invalid (WebKit before 16.5): the same signal, seen from the event side.
  const invalidSeen = new B.WeakMap();
  try {
    addListener(TOP_DOC, 'invalid', (e) => { if (e && e.target) wmSet(invalidSeen, e.target, true); }, true);
  } catch (e) {
    // a document without events: nothing to remember
  }
  // Forms the page received a submit of (the `submit` event, before any handler can stop it):
  // how the engine tells that a form was taken when the page shows nothing new.
  const submitsSeen = { count: 0, form: '' };
  try {
    addListener(TOP_DOC, 'submit', (e) => {
      submitsSeen.count++;
      try {
        submitsSeen.form = e && e.target ? formKey(e.target) : '';
      } catch (x) {
        submitsSeen.form = '';
      }
    }, true);
  } catch (e) {
    // a document without events: nothing to count
  }

  const state = {
    items: [], // index = id
    byElement: new B.WeakMap(),
    roots: [],
    scanCount: 0,
    hovered: null, // where the virtual pointer is, for enter/leave events
    keys: null, // the last scan's key memo (assignKeys), for elements registered after it
  };

  function resetMap() {
    state.items = [];
    state.byElement = new B.WeakMap();
    state.roots = [];
    state.keys = null;
    state.scanCount++;
  }

  /** The id of `el` in the current map, or 0. */
  function idOf(el) {
    const id = wmGet(state.byElement, el);
    return id && state.items[id] && state.items[id].el === el ? id : 0;
  }

  /**
   * Adds `el` to the map after the scan (query, find_text): a new id after the current maximum
   * (ids already given never change). Elements the scanner does not count as interactive are
   * registered too, with type "text" and `interactive: false`. Returns {item, added}.
   */
  function register(el) {
    const known = idOf(el);
    if (known) return { item: state.items[known], added: false };
    const ctx = contextOf(el);
    const cache = newVisibilityCache();
    const vis = visibilityOf(el, cache, false);
    const tag = tagOf(el);
    let why = 0;
    let interactive = isInteractiveCandidate(el, tag);
    if (!interactive) {
      syncListeners(ownerDocument(el));
      why = plainReasons(el, pointerCandidates(getRootNode(el))) | attributeReasons(el);
      if (why && !NOT_CLICKABLE_TAGS[tag] && !structural(el) && vis.visible) why = confirmClickable({ el, why });
      else why = 0;
      interactive = why !== 0;
    }
    const item = classify(el, ctx, vis, why);
    if (!interactive) {
      item.type = 'text';
      item.role = 'generic';
      item.interactive = false;
    }
    const r = vis.rect || getRect(el);
    const off = frameOffset(ctx.chain);
    item.rect = { x: r.left + off.x, y: r.top + off.y, width: r.width, height: r.height };
    const vp = viewportSize(TOP_DOC);
    const tr = item.rect;
    item.inViewport = vis.visible && (!vis.view || boxMeetsRect(vis.view, r)) &&
        tr.x < vp.width && tr.x + tr.width > 0 && tr.y < vp.height && tr.y + tr.height > 0;
    if (!state.keys) state.keys = newKeyMemo();
    assignKeys([item], state.keys);
    item.id = mathMax(state.items.length, 1);
    state.items[item.id] = item;
    wmSet(state.byElement, el, item.id);
    if (!includes(state.roots, getRootNode(el))) push(state.roots, getRootNode(el));
    return { item, added: true };
  }

  function isLive(item) {
    if (!isConnected(item.el)) return false;
    const chain = item.ctx.chain;
    for (let i = 0; i < chain.length; i++) {
      if (!isConnected(chain[i])) return false;
      const doc = safeContentDocument(chain[i]);
      const expected = i + 1 < chain.length ? ownerDocument(chain[i + 1]) : ownerDocument(item.el);
      if (doc !== expected) return false;
    }
    return true;
  }

  function itemLabel(item) {
    return '[' + item.id + '] ' + item.type + (item.text ? ' "' + item.text + '"' : '');
  }

  /** The live map entry for `id`, or ELEMENT_NOT_FOUND / ELEMENT_STALE. */
  function lookup(id) {
    const n = typeof id === 'string' && reTest(/^\d+$/, id) ? +id : id;
    if (typeof n !== 'number' || !numIsInteger(n)) {
      throw fail('ELEMENT_NOT_FOUND', 'element id must be a number from the last scan, got ' +
          toJson(id === undefined ? null : id) + '; run scan to get ids');
    }
    const last = state.items.length - 1;
    const item = n >= 1 && n <= last ? state.items[n] : null;
    if (!item) {
      throw fail('ELEMENT_NOT_FOUND', state.scanCount === 0
          ? 'no element [' + n + ']: nothing has been scanned on this page yet; run scan first'
          : 'no element [' + n + '] in the current element map (the last scan returned ' +
            (last > 0 ? 'ids 1..' + last : 'no elements') + '); run scan to refresh');
    }
    if (!isLive(item)) {
      throw fail('ELEMENT_STALE', 'element ' + itemLabel(item) + ' was removed from the page ' +
          'since the last scan; run scan to refresh');
    }
    return item;
  }

  // ===============================================================================================
  // 11. scan (spec §3.1).
  // ===============================================================================================
  const NEAR_RADIUS = 500;

  function cmdScan(cmd) {
    return withScanMemo(() => scan(cmd));
  }

  /**
   * Runs `fn` with the per-scan memo: for commands that read the page without changing it (scan,
   * query, find_text), which ask the same questions of many elements.
   */
  function withScanMemo(fn) {
    scanMemo = { unique: new B.Map(), attrs: new B.Map(), slots: new B.Map(), labels: new B.Map(),
      styles: new B.Map(), search: new B.Map(), originals: new B.Map(), inside: new B.Map(), pointed: new B.Map(),
      landmarks: new B.Map(), forms: new B.Map(), hiddenCombos: new B.Map(), ligatures: new B.Map(),
      firstControls: new B.Map(), radioHeadings: new B.Map(), controlLabels: new B.Map(), columnHeads: new B.Map() };
    try {
      return fn();
    } finally {
      scanMemo = null;
    }
  }

  function scan(cmd) {
    const t0 = now();
    const max = +param(cmd, 'max_elements', 200);
    const maxElements = numIsFinite(max) && max >= 0 ? mathFloor(max) : 200;
    // detail_max (an addition to spec §3.1, scanner/README.md): how many of the returned elements
    // carry selector and xpath (the rest omit them; get_selector gives them on demand). Pattern
    // members first, then document order, as for max_elements (which keeps its §3.1 meaning).
    const detail = +param(cmd, 'detail_max', maxElements);
    const detailMax = numIsFinite(detail) && detail >= 0 ? mathFloor(detail) : maxElements;
    const includeHidden = param(cmd, 'include_hidden', false) === true;
    const viewportOnly = param(cmd, 'viewport_only', false) === true;
    const near = param(cmd, 'near', null);
    const within = param(cmd, 'within', null);

    const scope = within ? scopeFor(within) : null;
    const walk = { total: 0, candidates: [], roots: [TOP_DOC], frames: [], includeHidden,
      boxes: new B.Map() };
    syncListeners(scope ? ownerDocument(scope.el) : TOP_DOC);
    if (scope) collect(scope.el, scope.ctx, walk);
    else collect(TOP_DOC, topContext(), walk);
    // Every shadow root of the page (classification looks into those near a button).
    if (!scope && scanMemo) scanMemo.roots = walk.roots;

    const vp = viewportSize(TOP_DOC);
    const cache = newVisibilityCache();
    let items = [];
    each(walk.candidates, (c) => {
      const item = measure(c, cache, vp, includeHidden);
      if (!item || (viewportOnly && !item.inViewport)) return;
      push(items, item);
    });
    items = settleClickables(items, vp);
    items = joinSegmentedFields(items);
    items = joinSectionedFields(items);
    const keys = assignKeys(items);
    markPrimaries(items);

    const patterns = detectPatterns(items, walk, vp, param(cmd, 'pattern_rules', null));
    let priority = items;
    const anchorInfo = near !== null && near !== '' ? nearAnchor(str(near), walk.roots) : null;
    if (anchorInfo) {
      items = withinRadius(items, anchorInfo.rect);
      priority = sortBy(items, (item) => item.distance);
    }
    const chosen = chooseReturned(items, priority, patterns.important, maxElements);
    const returned = new B.Set();
    each(chosen.list, (item) => setAdd(returned, item));
    const detailed = new B.Set();
    each(chooseReturned(chosen.list, filter(priority, (item) => setHas(returned, item)),
        patterns.important, detailMax).list, (item) => setAdd(detailed, item));
    resetMap();
    state.roots = walk.roots;
    state.keys = keys;
    each(chosen.list, (item, i) => {
      item.id = i + 1;
      state.items[item.id] = item;
      wmSet(state.byElement, item.el, item.id);
    });
    markLookalikes(chosen.list, cache);
    let ordered = chosen.list;
    if (anchorInfo) ordered = sortBy(chosen.list, (item) => item.distance);
    const active = deepActiveElement(TOP_DOC);
    return {
      page: pageInfo(),
      elements: map(ordered, (item) => elementJson(item, includeHidden, setHas(detailed, item), active)),
      patterns: map(patterns.list, (p) => patternJson(p)),
      messages: detectMessages(walk, items, patterns.list),
      frames: map(filter(walk.frames, (f) => (includeHidden || isVisible(f.iframe)) && !isExtensionFrame(f)), frameJson),
      stats: {
        total_scanned: walk.total,
        interactive: walk.candidates.length,
        visible: items.length,
        returned: chosen.list.length,
        detailed: detailed.size,
        truncated: chosen.truncated,
        scan_ms: round(now() - t0),
      },
    };
  }

  // ----- look-alike controls (an addition to spec §3.1, scanner/README.md) -----
  // Controls that read the same ("Like" under every post, "Remove" on every cart line, "Yes"
  // under every question, icon buttons without a name) each carry `context`: a short text of their
  // own row or card that tells them apart, the words a person reads to pick one (and the anchor of
  // `near`: one text node's words, cut at a word, no ellipsis). Their row: the highest box around
  // the control that holds none of its look-alikes. Its text: a heading first, then the texts in
  // document order; the first that no look-alike's row shows, else the first.
  const CONTEXT_MAX = 40;
  const CONTEXT_TEXTS = 6;
  const CONTEXT_GROUP_MAX = 200;

  function markLookalikes(list, cache) {
    const groups = itemsByBox(list, (item) => item.type + '\u0001' + item.role + '\u0001' + lc(item.text));
    B.mapForEach(groups, (members) => {
      if (members.length < 2 || members.length > CONTEXT_GROUP_MAX) return;
      const rows = ownRows(map(members, (m) => m.el));
      const texts = map(members, (m, i) => rowTexts(rows[i], m, cache));
      const shown = new B.Map();  // lower-cased text -> how many rows show it (a row lists a text once)
      each(texts, (list) => each(list, (t) => { const k = lc(t); mapSet(shown, k, (mapGet(shown, k) || 0) + 1); }));
      const picked = map(texts, (list) => find(list, (t) => mapGet(shown, lc(t)) === 1) || list[0] || '');
      const distinct = new B.Set();
      each(picked, (t) => { if (t) setAdd(distinct, lc(t)); });
      if (distinct.size < 2) return;
      each(members, (m, i) => { if (picked[i]) m.context = picked[i]; });
    });
  }

  /** Each member's row: the highest box around it (below <body>) that holds no other member. */
  function ownRows(els) {
    const held = new B.Map();  // box -> how many members it holds
    each(els, (el) => {
      for (let n = composedParent(el); n; n = composedParent(n)) mapSet(held, n, (mapGet(held, n) || 0) + 1);
    });
    return map(els, (el) => {
      let row = null;
      for (let n = composedParent(el), level = 0; n && level < 12; n = composedParent(n), level++) {
        const t = tagOf(n);
        if (t === 'body' || t === 'html' || mapGet(held, n) > 1) break;
        row = n;
      }
      return row;
    });
  }

  /** Up to CONTEXT_TEXTS shown texts of `row` outside the control itself, a heading's first. */
  function rowTexts(row, item, cache) {
    if (!row) return [];
    const out = [];
    const own = lc(item.text);
    const add = (n) => {
      const el = parentElement(n);
      if (!el || nodeContains(item.el, el) || NO_TEXT_TAGS[tagOf(el)]) return;
      const t = collapse(nodeValue(n));
      if (!reTest(/[\p{L}\p{N}]/u, t) || lc(t) === own) return;
      const clipped = clipWords(t, CONTEXT_MAX);
      if (find(out, (o) => lc(o) === lc(clipped)) || !shownText(el, cache)) return;
      push(out, clipped);
    };
    const heading = firstOf(row, 'h1, h2, h3, h4, h5, h6, [role=heading], legend, caption, th[scope=row]');
    const walk = (root) => {
      const walker = docCreateTreeWalker(ownerDocument(root), root, 4 /* SHOW_TEXT */);
      for (let n = walker.nextNode(); n && out.length < CONTEXT_TEXTS; n = walker.nextNode()) add(n);
    };
    if (heading && !nodeContains(heading, item.el)) walk(heading);
    walk(row);
    return out;
  }

  const NO_TEXT_TAGS = { script: 1, style: 1, template: 1, noscript: 1, option: 1 };

  /** Whether a row's text box shows (the row is on the page: its control is): drawn, over a pixel. */
  function shownText(el, cache) {
    if (!checkVisibility) return visibilityOf(el, cache).visible;
    if (!checkVisibility(el, VISIBILITY_CHECK)) return false;
    const r = getRect(el);
    return r.width > 1 && r.height > 1;
  }

  /** The first words of `s` up to `max` characters, cut where a word ends. */
  function clipWords(s, max) {
    if (s.length <= max) return s;
    let space = max;
    while (space > max / 2 && strSlice(s, space, space + 1) !== ' ') space--;
    return strSlice(s, 0, space > max / 2 ? space : max);
  }

  // ----- a code split over boxes (one-time codes, PINs) -----
  // Three to eight small text boxes side by side in a box of their own, alike, each taking one
  // character, no words among them: a person reads one field ("Verification code"), clicks the
  // first box and types the code; the page moves the focus on (Chakra's and Ark's PinInput,
  // Mantine's PinInput, Ant Design's Input.OTP, react-otp-input). Listed as one element: the
  // first box, named as the group is, its value the boxes' text joined, `segments` saying how
  // many. The other boxes are not listed, nor a hidden input beside them that a label names
  // (PinInput.HiddenInput: the form's value, its <label for> the group's name).
  const SEGMENT_INPUT_TYPES = { '': 1, text: 1, tel: 1, number: 1, password: 1 };

  function isSegmentBox(item) {
    if (item.tag !== 'input' || !item.vis.visible || !SEGMENT_INPUT_TYPES[lc(attr(item.el, 'type'))]) return false;
    const max = attr(item.el, 'maxlength');
    if (max !== null && max !== '' && +max > 1) return false;
    const r = item.rect;
    return r.width > 0 && r.width <= 72 && r.width <= 1.6 * r.height;
  }

  /** The box around a segment box's group: its parent, or the parent's parent when the parent wraps it alone. */
  function segmentContainer(el) {
    const p = parentElement(el);
    if (!p) return null;
    return queryAll(p, 'input:not([type=hidden])').length > 1 ? p : parentElement(p);
  }

  function joinSegmentedFields(items) {
    const groups = itemsByBox(items, (item) => (isSegmentBox(item) ? segmentContainer(item.el) : null));
    if (!groups.size) return items;
    const drop = new B.Set();
    B.mapForEach(groups, (boxes, container) => {
      if (!isSegmentGroup(boxes, container)) return;
      const els = map(boxes, (b) => b.el);
      const proxies = filter(segmentProxies(container), (el) => !includes(els, el));
      if (!saysCodeBoxes(els, container, proxies)) return;
      const first = boxes[0];
      const name = segmentGroupName(container, proxies, first);
      first.name = name;
      first.text = truncate(name, TEXT_MAX);
      first.segments = els;
      for (let i = 1; i < boxes.length; i++) setAdd(drop, boxes[i]);
      each(items, (item) => { if (includes(proxies, item.el)) setAdd(drop, item); });
    });
    return drop.size ? filter(items, (item) => !setHas(drop, item)) : items;
  }

  /** box (or any key) -> the items `boxOf` puts in it (null: none), in document order. */
  function itemsByBox(items, boxOf) {
    const groups = new B.Map();
    each(items, (item) => {
      const box = boxOf(item);
      if (!box) return;
      if (!mapHas(groups, box)) mapSet(groups, box, []);
      push(mapGet(groups, box), item);
    });
    return groups;
  }

  function isSegmentGroup(boxes, container) {
    const n = boxes.length;
    if (n < 3 || n > 8) return false;
    const r0 = boxes[0].rect;
    for (let i = 1; i < n; i++) {
      const r = boxes[i].rect;
      const prev = boxes[i - 1].rect;
      if (mathAbs(r.width - r0.width) > 3 || mathAbs(r.height - r0.height) > 3 || mathAbs(r.y - r0.y) > 4) return false;
      const gap = r.x - (prev.x + prev.width);
      if (gap < -1 || gap > 2 * r0.width) return false;
    }
    // No other field in the box, and no words: a row of labelled boxes ("R", "G", "B") is three fields.
    const els = map(boxes, (b) => b.el);
    const others = filter(queryAll(container, 'input, textarea, select'), (el) => !includes(els, el) && isVisible(el));
    if (others.length) return false;
    return !reTest(/[\p{L}\p{N}]/u, safeInnerText(container));
  }

  /**
   * Small boxes side by side are not always one code (hours, minutes and seconds): the page says
   * so by a character per box (maxlength 1), a one-time-code autocomplete, boxes named alike
   * ("Digit 1", "Digit 2"; all "PinInput"), a hidden input holding the whole value, or a group
   * of its own with a name.
   */
  function saysCodeBoxes(els, container, proxies) {
    if (proxies.length) return true;
    let max1 = true;
    let otp = false;
    const names = map(els, (el) => {
      if (attr(el, 'maxlength') !== '1') max1 = false;
      if (lc(attr(el, 'autocomplete')) === 'one-time-code') otp = true;
      return collapse(attr(el, 'aria-label') || attr(el, 'placeholder'));
    });
    if (max1 || otp) return true;
    const shape = (n) => strReplace(n, /\d+/g, '#');
    if (names[0] && !filter(names, (n) => !n || shape(n) !== shape(names[0])).length) return true;
    for (let g = container, up = 0; g && up < 3; g = parentElement(g), up++) {
      if ((up === 0 || ariaRole(g) === 'group') && (attr(g, 'aria-labelledby') || attr(g, 'aria-label'))) return true;
    }
    return false;
  }

  /** Inputs in the group's box, or up to two boxes around it, that a person does not see. */
  function segmentProxies(container) {
    let a = container;
    for (let up = 0; up < 2 && parentElement(a) && !LABEL_CLIMB_STOP[tagOf(parentElement(a))]; up++) a = parentElement(a);
    return filter(queryAll(a, 'input'), (el) => lc(attr(el, 'type')) !== 'hidden' ? !isVisible(el) : !!elId(el));
  }

  /**
   * The group's name: the label of a hidden input beside it, the group's own ARIA name (its box,
   * or a role=group around it), the label before it, or the first box's name without its number
   * ("pin code 1 of 4" -> "pin code").
   */
  function segmentGroupName(container, proxies, first) {
    for (let i = 0; i < proxies.length; i++) {
      const t = labelledByText(proxies[i], false) || controlLabelText(proxies[i]);
      if (t) return t;
    }
    let g = container;
    for (let up = 0; g && up < 3; g = parentElement(g), up++) {
      if (up > 0 && ariaRole(g) !== 'group' && ariaRole(g) !== 'radiogroup') continue;
      const t = labelledByText(g, false) || collapse(attr(g, 'aria-label'));
      if (t) return t;
    }
    const near = nearbyText(container);
    if (near) return near;
    return collapse(strReplace(first.name, /\s*\b\d+\b.*$/, '')) || first.name;
  }

  /** The text of a segmented field's boxes, joined; null when `item` is no such field. */
  function segmentsValue(item) {
    if (!item.segments) return null;
    if (item.sections) return sectionsValue(item.segments);
    let s = '';
    each(item.segments, (el) => { s += str(rawValue(el, 'input', 'input')); });
    return s;
  }

  // ----- a date or time field drawn section by section -----
  // A group (role=group, named by its label) of editable spinbuttons, one per part of the date
  // or time, with the separators between them as text: MUI X's pickers (v7's accessible DOM
  // structure, v8's default: the sections are transparent until the field is focused or filled,
  // the label drawn over them), React Aria's DateField and DatePicker (one segment per part, a
  // literal between). A person reads one field ("Date", "06/20/2025") and types it part by part:
  // listed as one element, the first section, named as the group is, `sections` saying what each
  // part is (the engine types each part into its section). A section's own name ("Month") is
  // not the field's.
  // By the start of the section's type or name ("month, Departure": React Aria's hooks name a
  // section by its kind, then the field's label). In this order: "weekday" and "dayPeriod" before "day".
  const SECTION_KINDS = [[/^week ?day|^weekday/, 'weekday'], [/^year/, 'year'], [/^month/, 'month'],
    [/^day ?period|^meridiem|^am ?\/? ?pm/, 'dayPeriod'], [/^day/, 'day'], [/^hour/, 'hour'], [/^minute/, 'minute'],
    [/^second/, 'second'], [/^era/, 'era']];

  function isDateSection(el) {
    return ariaRole(el) === 'spinbutton' && hasAttribute(el, 'contenteditable') && isEditingHost(el);
  }

  /** The named role=group a section belongs to (a few boxes up), or null. */
  function sectionGroupOf(el) {
    for (let n = composedParent(el), depth = 0; n && depth < 5; n = composedParent(n), depth++) {
      if (ariaRole(n) === 'group') return attr(n, 'aria-labelledby') || attr(n, 'aria-label') ? n : null;
    }
    return null;
  }

  /**
   * A section its field keeps transparent until it is focused or filled (MUI X), in a named
   * group a person sees, over the group's box: visible as itself, as the label drawn on the box
   * says where to click.
   */
  function transparentSectionVisibility(el, cache) {
    if (!isDateSection(el) || !checkVisibility || !checkVisibility(el, { visibilityProperty: true })) return null;
    const group = sectionGroupOf(el);
    if (!group) return null;
    const gv = visibilityOf(group, cache, true);
    if (!gv.visible) return null;
    const r = getRect(el);
    if (r.width < 2 || r.height < 4 || !boxesOverlap(r, gv.rect || getRect(group))) return null;
    return { visible: true, reason: '', rect: r, view: gv.view, fixedRoot: gv.fixedRoot };
  }

  function sectionKind(el) {
    const said = lc(collapse(attr(el, 'data-type') || strSplit(str(attr(el, 'aria-label')), ',')[0]));
    const k = find(SECTION_KINDS, (pair) => reTest(pair[0], said));
    return k ? k[1] : '';
  }

  /** A section showing its placeholder ("MM", "yyyy", "––", "aa"): nothing typed there yet. */
  function sectionEmpty(el) {
    if (attr(el, 'data-placeholder') === 'true') return true;
    if (hasAttribute(el, 'aria-valuenow')) return false;
    if (lc(collapse(attr(el, 'aria-valuetext'))) === 'empty') return true;
    const t = collapse(textContent(el));
    return !t || (reTest(/^(.)\1*$/u, t) && !reTest(/\d/, t));
  }

  /** What the field shows, separators and all ("06/20/2025", "07:30 PM"); empty when no part is filled. */
  function sectionsValue(sections) {
    if (!find(sections, (el) => !sectionEmpty(el))) return '';
    const first = sections[0];
    const last = sections[sections.length - 1];
    let box = composedParent(first);
    while (box && !composedContains(box, last)) box = composedParent(box);
    if (!box) return '';
    // The text from the first section to the end of the last (not a button's glyph after it).
    const walker = docCreateTreeWalker(ownerDocument(box), box, 4 /* SHOW_TEXT */);
    let s = '';
    let on = false;
    let inLast = false;
    for (let t = walker.nextNode(); t; t = walker.nextNode()) {
      if (!on && composedContains(first, t)) on = true;
      if (!on) continue;
      if (composedContains(last, t)) inLast = true;
      else if (inLast) break;
      s += str(nodeValue(t));
    }
    return collapse(strReplace(s, /[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, ''));
  }

  function joinSectionedFields(items) {
    const groups = itemsByBox(items, (item) => (item.segments || !isDateSection(item.el) ? null : sectionGroupOf(item.el)));
    if (!groups.size) return items;
    const drop = new B.Set();
    B.mapForEach(groups, (sections, group) => {
      // Every section of the group listed (none hidden away), and at most eight (a date and a time).
      const all = filter(queryAll(group, '[role=spinbutton]'), isDateSection);
      if (sections.length < 2 || sections.length > 8 || all.length !== sections.length) return;
      const name = labelledByText(group, false) || collapse(attr(group, 'aria-label'));
      if (!name) return;
      // (Kinds it cannot tell, a localized MUI X label, still join: the group and its editable
      // spinbuttons say it is one field; the engine then types the text as it is.)
      const kinds = map(sections, (s) => sectionKind(s.el));
      const date = find(kinds, (k) => k === 'year' || k === 'month' || k === 'day') !== null;
      const time = find(kinds, (k) => k === 'hour' || k === 'minute') !== null;
      const first = sections[0];
      first.name = name;
      first.text = truncate(name, TEXT_MAX);
      first.type = 'input';
      if (date || time) first.role = date && time ? 'datetime' : date ? 'date' : 'time';
      first.segments = map(sections, (s) => s.el);
      first.sections = map(kinds, (k) => k || 'other');
      // The field's box: what a person sees and aims at.
      const gr = getRect(group);
      const off = frameOffset(first.ctx.chain);
      if (gr.width > 0 && gr.height > 0) first.rect = { x: gr.left + off.x, y: gr.top + off.y, width: gr.width, height: gr.height };
      for (let i = 1; i < sections.length; i++) setAdd(drop, sections[i]);
    });
    return drop.size ? filter(items, (item) => !setHas(drop, item)) : items;
  }

  function scopeFor(selector) {
    const found = resolveAll(str(selector));
    if (!found.length) {
      throw fail('ELEMENT_NOT_FOUND', 'no element matches within selector "' + selector +
          '"; check it with exists or scan without within');
    }
    return { el: found[0], ctx: contextOf(found[0]) };
  }

  /**
   * Classifies one candidate and measures it in top-level viewport coordinates; null when it is
   * hidden and hidden elements are not wanted.
   */
  function measure(c, cache, vp, includeHidden) {
    let vis = visibilityOf(c.el, cache, true);
    let proxy = null;
    let editorView = false;  // proxy: the box a code editor's input of no size stands for
    let drawnSlider = false;  // proxy: the handle of a slider drawn for the hidden input
    if (c.why) {
      // Plain elements count only where a person sees them, and when nothing around them is
      // the control already.
      if (!vis.visible) return null;
      // A region taller than the viewport or covering half of it is not a control (and naming
      // it would read the text of half the page).
      const r = vis.rect;
      if (r.height > vp.height || r.width * r.height >= 0.5 * vp.width * vp.height) return null;
      c.why = confirmClickable(c);
      if (!c.why) return null;
    }
    // (Carbon's Toggle: a `button role=switch` clipped to 1 px behind its visible <label for>.)
    const checkableButton = tagOf(c.el) === 'button' && (ariaRole(c.el) === 'switch' || ariaRole(c.el) === 'checkbox');
    if (!vis.visible && (isNativeCheckable(c.el) || isFocusTargetCombobox(c.el) || checkableButton)) {
      proxy = visibleLabelOf(c.el, cache) || (isNativeCheckable(c.el) ? drawnCheckableBox(c.el, cache) : null);
      if (proxy && (holdsValueOf(c.el, proxy) || ariaStandInOf(c.el))) return null;
      if (proxy) vis = visibilityOf(proxy, cache, true);
    } else if (!vis.visible && tagOf(c.el) === 'input' && lc(attr(c.el, 'type')) === 'range') {
      proxy = drawnThumbOf(c.el, cache);
      if (proxy) vis = visibilityOf(proxy, cache, true);
    } else if ((!vis.visible || (vis.rect && vis.rect.width <= 4 && vis.rect.height <= 4)) && tagOf(c.el) === 'input' &&
        hasAttribute(c.el, 'readonly') && (proxy = drawnSliderHandleBefore(c.el, cache))) {
      // (Hidden, or a speck: ion.rangeSlider's input keeps a 4 px transparent border.)
      vis = visibilityOf(proxy, cache, true);
      drawnSlider = true;
    } else if (!vis.visible && vis.reason === 'zero size') {
      proxy = editorViewOf(c.el, cache);
      editorView = !!proxy;
      if (proxy) vis = visibilityOf(proxy, cache, true);
    }
    if (!vis.visible) {
      const shown = transparentOverlayVisibility(c.el, cache);
      if (shown) vis = shown;
    }
    if (!vis.visible && !includeHidden) return null;
    if (!includeHidden && !proxy && laidUnder(c.el)) return null;
    if (!vis.rect) vis.rect = getRect(proxy || c.el);
    const item = classify(c.el, c.ctx, vis, c.why);
    if (drawnSlider) item.type = 'slider';
    item.proxy = proxy;
    item.editorView = editorView;
    const off = frameOffset(c.ctx.chain);
    const r = vis.rect;
    item.rect = { x: r.left + off.x, y: r.top + off.y, width: r.width, height: r.height };
    const tr = item.rect;
    item.inViewport = vis.visible && boxMeetsRect(vis.view, r) &&
        tr.x < vp.width && tr.x + tr.width > 0 && tr.y < vp.height && tr.y + tr.height > 0 &&
        inFrameViewports(tr, c.ctx.chain);
    return item;
  }

  /**
   * The reasons that hold for a plain candidate {el, why} (0: it does not count): not inside a
   * control, link, label or widget (that is the unit), and cursor:pointer only where it starts
   * (it is inherited: the children of a pointer box have it too).
   */
  function confirmClickable(c) {
    let why = c.why;
    if ((insideInteractive(c.el) && !removesChosenItem(c.el)) || labelsAControl(c.el) || framesSlottedLabel(c.el)) return 0;
    // A box hidden from assistive technology that shows a person nothing either (CodeMirror's
    // fold gutter on a line that folds nothing; its hidden marker sizes the column).
    // Nor one that shows only a required field's asterisk (Vaadin's required indicator, which
    // focuses its field): the field says it is required.
    if (closestAttr(c.el, 'aria-hidden', null) === 'true' &&
        (!drawsSomething(c.el) || (collapse(textContent(c.el)) || drawnGlyph(c.el)) === '*')) return 0;
    if ((why & BY_POINTER) && ownStyle(c.el, cursorOf) !== 'pointer') why &= ~BY_POINTER;
    return why;
  }

  /**
   * Whether `el` shows a person anything: text, an image or icon (itself or inside), a glyph or
   * picture of CSS (an icon font's ::before, a background image) on it or its first boxes inside.
   */
  function drawsSomething(el) {
    if (matches(el, PICTURES) || firstOf(el, PICTURES) || collapse(safeInnerText(el))) return true;
    const inside = queryAll(el, '*');
    const drawnByCss = (n) => {
      const st = styleOf(n);
      if (st && ((st.backgroundImage && st.backgroundImage !== 'none') || masksAPicture(st))) return true;
      return find(['::before', '::after'], (p) => {
        const ps = pseudoStyleOf(n, p);
        const content = ps ? str(ps.content) : '';
        // (An empty ::before whose picture is a mask over its colour: Vaadin's Lumo icons.)
        return (content !== '' && content !== 'none' && content !== 'normal' && content !== '""') ||
            (content === '""' && masksAPicture(ps));
      }) !== null;
    };
    return drawnByCss(el) || find(sliceArr(inside, 0, mathMin(inside.length, 30)), drawnByCss) !== null;
  }
  const PICTURES = 'img, svg, canvas, video, picture';

  /** Whether a computed style paints its box through a mask picture (an icon drawn by CSS). */
  function masksAPicture(st) {
    const mask = st ? str(st.maskImage || st.webkitMaskImage) : '';
    return mask !== '' && mask !== 'none';
  }

  /**
   * A plain cross inside a combobox that listens or takes the focus: a chosen item's remove
   * control (Vue-Multiselect's tags: an empty <i tabindex=1> whose "×" is CSS, a mousedown
   * listener). A control of its own, not part of the box.
   */
  function removesChosenItem(el) {
    if (!reTest(CLOSE_GLYPH, collapse(textContent(el)) || drawnGlyph(el))) return false;
    for (let n = composedParent(el), depth = 0; n && depth < 6; n = composedParent(n), depth++) {
      if (ariaRole(n) === 'combobox') return true;
    }
    return false;
  }

  /**
   * A component's label part that shows nothing but a slotted <label> (Vaadin's div part=label
   * around <slot name=label>, whose click focuses the field): the label, not a control.
   */
  function framesSlottedLabel(el) {
    if (!isShadowRoot(getRootNode(el)) || collapse(textContent(el))) return false;
    const slots = queryAll(el, 'slot');
    for (let i = 0; i < slots.length && i < 4; i++) {
      const assigned = assignedTo(slots[i]);
      for (let j = 0; j < assigned.length; j++) {
        const n = assigned[j];
        if (nodeType(n) === ELEMENT_NODE && (tagOf(n) === 'label' || labelsAControl(n))) return true;
      }
    }
    return false;
  }

  /**
   * A label drawn as a plain element that a control names itself by (aria-labelledby): its click
   * focuses that control (react-aria's Select and DatePicker labels, spans with a click handler),
   * and the control is the unit, as for a <label>. A region or dialog labelled by its header does
   * not count: the header may be what opens it.
   */
  function labelsAControl(el) {
    // A custom element's label names its field by `for`, as a <label> does (Spectrum's
    // sp-field-label): its click only focuses that field.
    const target = tagOf(el) !== 'output' ? attr(el, 'for') : '';
    const named = target ? byIdInRoot(el, target) : null;
    if (named && named !== el && !nodeContains(el, named)) return true;
    const id = elId(el);
    if (!id) return false;
    // The ids that controls of `el`'s root name themselves by: one query per root and scan.
    const root = getRootNode(el);
    let ids = scanMemo ? mapGet(scanMemo.controlLabels, root) : null;
    if (!ids) {
      ids = new B.Map();  // id -> the controls labelled by it
      each(queryAll(root, '[aria-labelledby]'), (u) => {
        if (!isInteractiveCandidate(u, tagOf(u)) && ariaRole(u) !== 'group') return;
        each(strSplit(collapse(attr(u, 'aria-labelledby')), ' '), (ref) => {
          if (!ref) return;
          if (!mapHas(ids, ref)) mapSet(ids, ref, []);
          push(mapGet(ids, ref), u);
        });
      });
      if (scanMemo) mapSet(scanMemo.controlLabels, root, ids);
    }
    const users = mapHas(ids, id) ? mapGet(ids, id) : [];
    return find(users, (u) => u !== el && !nodeContains(el, u)) !== null;
  }

  /** True when an ancestor of `el` is a control, link, label or widget (listboxes excepted). */
  function insideInteractive(el) {
    const memo = scanMemo ? scanMemo.inside : null; // node -> its descendants are inside one
    const path = [];
    let answer = false;
    for (let n = composedParent(el); n; n = composedParent(n)) {
      if (memo && mapHas(memo, n)) {
        answer = mapGet(memo, n);
        break;
      }
      const tag = tagOf(n);
      if (tag === 'body' || tag === 'html') break;
      if (tag === 'label' || (isInteractiveCandidate(n, tag) && ariaRole(n) !== 'listbox')) {
        answer = true;
        if (memo) mapSet(memo, n, true);
        break;
      }
      push(path, n);
    }
    if (memo) for (let i = 0; i < path.length; i++) mapSet(memo, path[i], answer);
    return answer;
  }

  /**
   * One unit per thing a person clicks. Among plain clickables (innermost first): a box holding
   * eight or more units is a region (event delegation, a page root), not a control; a box whose
   * text all belongs to units inside it is their wrapper; a box with units and text of its own
   * (a card, a row) is named by that text only; a box with no name and nothing drawn is
   * decoration; 400+ characters is text content, and so is a focusable box that scrolls or
   * reads like prose without any other sign of being clickable. A delegating list (three or
   * more alike children holding all its text) gives its children as units. A listbox whose
   * options are listed is their container. Keeps document order.
   */
  function settleClickables(items, vp) {
    const n = items.length;
    const drop = new B.Set();
    // A slider drawn for a hidden input (drawnSliderHandleBefore) is one unit: its handle, and
    // the value tip and bar that take presses too, are parts of its drawing.
    const drawings = map(filter(items, (s) => s.type === 'slider' && s.tag === 'input' && !!s.proxy),
        (s) => previousElementSibling(s.el));
    if (drawings.length) {
      each(items, (x) => { if (x.why !== 0 && find(drawings, (d) => !!d && nodeContains(d, x.el))) setAdd(drop, x); });
    }
    let extra = null; // children of delegating lists: item -> [its children's items]
    for (let i = n - 1; i >= 0; i--) {
      const item = items[i];
      const widget = item.type === 'select' && item.tag !== 'select' && item.tag !== 'input';
      const custom = widget && (!!originalSelectOf(item.el) || ariaRole(item.el) === 'combobox' ||
          !!hiddenComboboxOf(item.el) || (item.why !== 0 && !!selectComponentOf(item.el)));
      const listbox = widget && !custom && item.why === 0 && ariaRole(item.el) === 'listbox';
      if (item.why === 0 && (item.type === 'checkbox' || item.type === 'radio') && !isNativeCheckable(item.el)) {
        // An ARIA switch or checkbox over a native one of its own (Ionic's ion-toggle and
        // ion-checkbox: the host carries role, state and name; the input sits in its shadow
        // root) is one unit: the host.
        for (let j = i + 1; j < n && insideForUnits(item.el, items[j].el); j++) {
          if (items[j].type === item.type && isNativeCheckable(items[j].el)) setAdd(drop, items[j]);
        }
        continue;
      }
      if (item.why === 0 && item.type === 'option' && hasAttribute(item.el, 'aria-selected')) {
        // An option that shows its state (aria-selected) as a checkbox of its own, named as it is
        // or not at all (Carbon's MultiSelect, MUI's checkbox Autocomplete): one unit, the option.
        const name = lc(collapse(item.name));
        for (let j = i + 1; j < n && insideForUnits(item.el, items[j].el); j++) {
          const x = items[j];
          if ((x.type === 'checkbox' || x.type === 'radio') && (!x.name || lc(collapse(x.name)) === name)) setAdd(drop, x);
        }
        continue;
      }
      if (item.why === 0 && ariaRole(item.el) === 'spinbutton' && !isFormControl(item.el)) {
        // A box with role=spinbutton around its own text field and step buttons (Webix's
        // counter): the field is the unit, and the box its group.
        let field = false;
        for (let j = i + 1; j < n && insideForUnits(item.el, items[j].el); j++) {
          if (items[j].tag === 'input' && items[j].type === 'input') field = true;
        }
        if (field) {
          setAdd(drop, item);
          continue;
        }
      }
      if (item.why === 0 && !listbox && !custom) continue;
      const inner = new B.Set();
      const innerItems = [];
      let options = 0;
      for (let j = i + 1; j < n && insideForUnits(item.el, items[j].el); j++) {
        if (setHas(drop, items[j])) {
          // (A delegating list's children stand in its place.)
          if (extra && mapHas(extra, items[j])) {
            each(mapGet(extra, items[j]), (c) => {
              setAdd(inner, c.el);
              push(innerItems, c);
            });
          }
          continue;
        }
        setAdd(inner, items[j].el);
        push(innerItems, items[j]);
        if (items[j].type === 'option') options++;
      }
      if (listbox) {
        if (options) setAdd(drop, item);
        continue;
      }
      if (item.why !== 0 && innerItems.length >= 2 && find(innerItems, (x) => x.type !== 'radio') === null) {
        // A box around a radio group that listens for its clicks (Web Awesome's wa-radio-group):
        // the group, not a control of its own.
        setAdd(drop, item);
        continue;
      }
      if (item.why !== 0 && (find(innerItems, (x) => x.proxy === item.el) !== null ||
          (innerItems.length === 1 && innerItems[0].editorView))) {
        // The box that draws the checkbox inside it and takes its clicks (drawnCheckableBox);
        // a code editor's box around the view its input stands for (Monaco's role=code box).
        setAdd(drop, item);
        continue;
      }
      if (custom) {
        // A custom select is one unit: what it shows (the chosen item, a read-only textbox) is
        // part of it; the options of its open list are units. Where it wraps the focusable
        // combobox input (tom-select, ARIA 1.1 comboboxes), that input is the unit.
        const drawnOver = hiddenComboboxOf(item.el);
        // (Naive UI's filter field is no unit: no role, out of the tab order; the box takes the focus.)
        if (find(innerItems, (x) => x.el !== drawnOver && (x.type === 'select' || (x.tag === 'input' &&
            !inCustomSelectPopup(x.el) && (ariaRole(x.el) === 'combobox' || attr(x.el, 'tabindex') !== '-1')))) !== null) {
          // The combobox's own text field (ARIA 1.1: the combobox wraps its textbox) is the unit.
          setAdd(drop, item);
          continue;
        }
        if (item.why !== 0) {
          // The box's own arrow beside it, hidden from assistive technology (Ant Design's
          // .ant-select-arrow): part of the select, not a control of its own.
          const box = parentElement(item.el);
          for (let j = i + 1; j < n && box && insideForUnits(box, items[j].el); j++) {
            if (items[j].why !== 0 && closestAttr(items[j].el, 'aria-hidden', box) === 'true') setAdd(drop, items[j]);
          }
        }
        // A chosen item's own button (the "Remove item" of a multiple select's chip: a <button>,
        // Slim Select's named role=button box, or Vue-Multiselect's bare "×") stays a unit.
        each(innerItems, (x) => {
          if (!inListboxBelow(x.el, item.el) &&
              !((x.tag === 'button' || (x.why === 0 && ariaRole(x.el) === 'button') || reTest(CLOSE_GLYPH, x.name) ||
                reTest(/^(close|remove|delete|clear)$/, x.name)) && x.name)) {
            setAdd(drop, x);
          }
        });
        continue;
      }
      if (!inner.size && item.why !== 0 && (shadowRoot(item.el) || firstOf(item.el, 'slot'))) {
        // Units it shows through slots come elsewhere in document order (Vaadin's overlay, in the
        // date picker's shadow root, shows the calendar and buttons of the picker's light DOM):
        // a box around two or more of them is their wrapper, as one around them in place.
        let held = 0;
        for (let j = 0; j < n && held < 2; j++) {
          if (j !== i && !setHas(drop, items[j]) && insideForUnits(item.el, items[j].el)) held++;
        }
        if (held >= 2) {
          setAdd(drop, item);
          continue;
        }
      }
      const wrapped = item.why !== 0 && !custom && innerItems.length ? originalSelectOf(item.el) : null;
      if (wrapped && find(innerItems, (x) => x.type === 'select' && originalSelectOf(x.el) === wrapped) !== null) {
        // The listening wrapper of a custom select drawn inside it (Chosen's chosen-container):
        // the select is the unit; what the wrapper shows besides (its chips) is the select's.
        setAdd(drop, item);
        continue;
      }
      if (item.why !== 0 && find(innerItems, (x) => x.type === 'select' && x.tag === 'input' && chipBoxOf(x.el) === item.el) !== null &&
          find(innerItems, (x) => x.type !== 'select' && x.type !== 'button') === null) {
        // The box of chips that a select's text field types in, which takes the clicks around
        // the field (w2ui's enum): part of the select; its chips are the select's choices, their
        // closers units of their own.
        setAdd(drop, item);
        continue;
      }
      if (item.why !== 0 && innerItems.length && find(innerItems, (x) => x.type !== 'slider') === null) {
        // A box around a slider that takes presses (bootstrap-slider's track, which shows the
        // value in a tip of its own): part of the slider, whose handle is the unit.
        setAdd(drop, item);
        continue;
      }
      if (inner.size >= 8 || item.name.length > 400 || (item.why === BY_TABINDEX && readsLikeText(item)) ||
          (item.why !== 0 && inner.size && holdsDialogTitle(item.el)) || (item.why !== 0 && holdsCards(item.el))) {
        setAdd(drop, item);
        continue;
      }
      if (inner.size) {
        // A <label> of a unit inside is that unit's text, not the box's (MUI's Autocomplete root
        // listens for clicks around its labelled input: the input is the unit).
        const skip = new B.Set(inner);
        each(innerItems, (x) => each(labelsOf(x.el), (l) => setAdd(skip, l)));
        // Nor the text of controls drawn disabled inside it (w2ui's toolbar: its "Delete" and
        // "Save" wait, unheard, for a selection; the box around the line hears drags).
        each(queryAll(item.el, 'button.disabled, a.disabled, [role=button].disabled, [class*="button"].disabled, ' +
            '[class*="btn"].disabled, [aria-disabled="true"]'), (d) => setAdd(skip, d));
        const own = collapse(ownText(item.el, skip));
        // (A field's placeholder drawn over it in a box of its own, Naive UI's n-input: the
        // box's only text is the field's.)
        if (!own || find(innerItems, (x) => lc(collapse(attr(x.el, 'placeholder'))) === lc(own)) !== null) {
          setAdd(drop, item);
          continue;
        }
        item.name = own;
        item.text = truncate(own, TEXT_MAX);
        continue;
      }
      const glyphs = item.name ? [] : queryAll(item.el, 'img, svg, canvas, i, [class*="icon" i]');
      if (!item.name && find(glyphs, (g) => !transparentStyle(g)) === null &&
          !reTest(/^(img|svg|canvas|i)$/, item.tag)) {
        setAdd(drop, item);
        continue;
      }
      const children = delegatedChildren(item);
      if (children) {
        setAdd(drop, item);
        if (!extra) extra = new B.Map();
        mapSet(extra, item, children);
      }
    }
    let kept = items;
    if (drop.size) {
      kept = [];
      each(items, (item) => {
        if (!setHas(drop, item)) push(kept, item);
        else if (extra && mapHas(extra, item)) each(mapGet(extra, item), (c) => push(kept, c));
      });
    }
    plainSiblings(kept);
    return kept;
  }

  const CARD_CONTROLS = 'button, a[href], input, select, textarea, [role="button"], [role="link"]';

  /**
   * A box around two or more cards, each a control with text of its own beside it (a carousel's
   * track that listens to be swiped, Splide's and Embla's; a grid of products that delegates its
   * clicks): under the boxes that wrap a single child, children of one tag side by side that each
   * hold a control and more text than the control's. Such a box is the cards' place, not a card.
   */
  function holdsCards(el) {
    // (Boxes with a size and text: Splide's track holds its list and, a moment after a move, the
    // 1 px text it announces the move with; a Swiper its slides' wrapper and its bullets.)
    const sized = (n) => filter(children(n), (k) => {
      const r = getRect(k);
      return r.width > 1 && r.height > 1 && !!collapse(textContent(k));
    });
    const area = (n) => {
      const r = getRect(n);
      return r.width * r.height;
    };
    let box = el;
    let kids = sized(box);
    // Down to the row of cards: the one box inside, or the one that fills most of it (Slick's list
    // above its dots).
    for (let d = 0; d < 5 && kids.length >= 1; d++) {
      if (kids.length >= 2 && cardsSideBySide(kids)) return true;
      let most = kids[0];
      let mostArea = area(most);
      each(kids, (k) => {
        const a = area(k);
        if (a > mostArea) {
          most = k;
          mostArea = a;
        }
      });
      if (kids.length > 1 && mostArea < area(box) * 0.6) return false;
      box = most;
      kids = sized(box);
    }
    return false;
  }

  /** Boxes of one tag, two or more of them side by side that each hold a control and more text than it. */
  function cardsSideBySide(kids) {
    let first = null;
    for (let i = 0; i < kids.length && i < 60; i++) {
      const k = kids[i];
      if (tagOf(k) !== tagOf(kids[0])) return false;  // (their classes differ: the current slide's)
      const control = firstOf(k, CARD_CONTROLS);
      if (!control || collapse(textContent(k)).length <= collapse(textContent(control)).length + 1) continue;
      // Side by side, as cards are laid out (two paragraphs of a card, each with a link, are not).
      const r = getRect(k);
      if (!first) first = r;
      else if (mathAbs(r.left - first.left) >= first.width / 2 && mathAbs(r.top - first.top) < first.height / 2) return true;
    }
    return false;
  }

  /**
   * True when `inner` is inside `outer` as a person sees it: in its subtree, or slotted into a
   * slot in its shadow tree (a tab group's container holds the tabs it slots).
   */
  function insideForUnits(outer, inner) {
    return composedContains(outer, inner) || (isShadowRoot(getRootNode(outer)) && flatContains(outer, inner));
  }

  /** The value of attribute `name` on `el` or its nearest ancestor below `top` that has it, or ''. */
  function closestAttr(el, name, top) {
    for (let n = el; n && n !== top; n = parentElement(n)) {
      if (hasAttribute(n, name)) return attr(n, name);
    }
    return '';
  }

  /** True when a role=listbox element lies between `el` and its ancestor `top` (excluded). */
  function inListboxBelow(el, top) {
    for (let n = composedParent(el); n && n !== top; n = composedParent(n)) {
      if (ariaRole(n) === 'listbox' || isSelectMenu(n)) return true;
    }
    return false;
  }

  /** The first class of `el` (the base class of a component: "mail" of "mail unread"), or ''. */
  function firstClass(el) {
    return strSplit(collapse(attr(el, 'class')), ' ')[0] || '';
  }

  /** A focusable box with no other sign of being clickable that scrolls or holds prose. */
  function readsLikeText(item) {
    return scrollsItsContent(item.el) || item.name.length > 80;
  }

  /** True when `el` is a scroll container with more content than its box shows. */
  function scrollsItsContent(el) {
    const st = styleOf(el);
    return !!st && isScrollable(st) && overflowsItsBox(el);
  }

  /**
   * The text `el` shows outside the elements of `skip` (rendered text only), up to 400
   * characters.
   */
  function ownText(el, skip) {
    let budget = 2000;
    let out = '';
    const walkChildren = (node) => {
      for (let c = firstChild(node); c && out.length < 400; c = nextSibling(c)) {
        if (--budget < 0) return;
        const t = nodeType(c);
        if (t === 3) {
          out += nodeValue(c);
          continue;
        }
        if (t !== ELEMENT_NODE || setHas(skip, c)) continue;
        const tag = tagOf(c);
        if (tag === 'script' || tag === 'style' || tag === 'template' || !isRenderedBox(c)) continue;
        out += ' ';
        walkChildren(c);
        const sr = shadowRoot(c);
        if (sr) walkChildren(sr);
        out += ' ';
      }
    };
    const own = shadowRoot(el);
    walkChildren(own || el);
    return reTest(/[\p{L}\p{N}]/u, out) ? out : '';
  }

  /**
   * For a plain clickable list (a listener on the list: delegation) whose three or more visible
   * element children are alike and hold all its text: those children as items, in its place.
   * Through boxes that only wrap one shown child, down to table rows or list items (w2ui's grid
   * listens on the box around its records' table, rows in its tbody). Alike: one tag and first
   * class (rows and list items: one tag; striped rows alternate their classes). Boxes of no size
   * (a grid's spacer rows) are no children, nor empty ones. Null otherwise.
   */
  function delegatedChildren(item) {
    if (!(item.why & (BY_LISTENER | BY_HANDLER))) return null;
    const sized = (k) => {
      const r = getRect(k);
      return r.width > 0 && r.height > 0;
    };
    let kids = filter(children(item.el) || [], sized);
    // (Down only to table rows or list items: a card's one inner box holds its lines, no list.)
    let down = kids;
    for (let depth = 0; depth < 3 && down.length === 1 && !isFormControl(down[0]); depth++) {
      down = filter(children(down[0]) || [], sized);
    }
    const rowTag = (k) => tagOf(k) === 'tr' || tagOf(k) === 'li';
    if (kids.length === 1 && down.length && rowTag(down[0])) kids = down;
    if (kids.length < 3 || kids.length > 200) return null;
    const sig = (k) => tagOf(k) + '.' + firstClass(k);
    const first = sig(kids[0]);
    const alike = (k) => (rowTag(kids[0]) ? tagOf(k) === tagOf(kids[0]) : sig(k) === first);
    const cache = newVisibilityCache();
    const out = [];
    for (let i = 0; i < kids.length; i++) {
      if (!alike(kids[i])) return null;
      const vis = visibilityOf(kids[i], cache, true);
      if (!vis.visible) continue;
      const child = classify(kids[i], item.ctx, vis, item.why);
      if (!child.name) {
        // (An empty one is a spacer: w2ui's grid keeps rows of empty cells to size its columns.)
        if (!collapse(textContent(kids[i])) && !firstOf(kids[i], 'img, svg, canvas, input, select, textarea, button')) continue;
        return null;
      }
      const off = frameOffset(item.ctx.chain);
      child.rect = { x: vis.rect.left + off.x, y: vis.rect.top + off.y, width: vis.rect.width,
        height: vis.rect.height };
      child.inViewport = item.inViewport;
      push(out, child);
    }
    const covered = new B.Set();
    each(out, (c) => setAdd(covered, c.el));
    if (out.length < 3 || ownText(item.el, covered)) return null;
    return out;
  }

  /**
   * Repeated plain buttons (same parent, tag and class, three or more): stacked full-width boxes
   * are rows (an email list), a grid of boxes is items (cards); a line of them stays buttons (a
   * toolbar).
   */
  function plainSiblings(items) {
    const groups = new B.Map(); // parent -> class signature -> [items]
    each(items, (item) => {
      if (!item.why || item.type !== 'button') return;
      const parent = parentNode(item.el);
      if (!parent) return;
      let bySig = mapGet(groups, parent);
      if (!bySig) {
        bySig = new B.Map();
        mapSet(groups, parent, bySig);
      }
      const sig = item.tag + '.' + firstClass(item.el);
      const list = mapGet(bySig, sig);
      if (list) push(list, item);
      else mapSet(bySig, sig, [item]);
    });
    const classifyGroup = (list) => {
      if (list.length < 3) return;
      const x0 = list[0].rect.x;
      const y0 = list[0].rect.y;
      let sameX = true;
      let sameY = true;
      let wide = true;
      each(list, (i) => {
        if (mathRound(i.rect.x - x0) !== 0) sameX = false;
        if (mathRound(i.rect.y - y0) !== 0) sameY = false;
        if (i.rect.width < 3 * i.rect.height) wide = false;
      });
      if (sameY) return;
      const type = sameX && wide ? 'row' : sameX ? '' : 'item';
      if (type) each(list, (i) => { i.type = type; });
    };
    B.mapForEach(groups, (bySig) => B.mapForEach(bySig, classifyGroup));
  }

  function isNativeCheckable(el) {
    if (tagOf(el) !== 'input') return false;
    const t = lc(attr(el, 'type'));
    return t === 'checkbox' || t === 'radio';
  }

  /**
   * A transparent control laid over what a person sees in its place, which takes the click they
   * aim at it: a native <select> or file input over a visible label or button (Pikaday's month
   * and year, styled upload buttons); a named button over a drawn field (Ionic's ion-select); a
   * text field inside its own visible <label> (Ionic's floating label: the field shows only once
   * focused). Visible as the box it covers; null for anything else.
   */
  function transparentOverlayVisibility(el, cache) {
    const drawn = namedFieldBehindVisibility(el, cache) || transparentSectionVisibility(el, cache);
    if (drawn) return drawn;
    if (!isOverlayKind(el)) return null;
    const st = styleOf(el);
    if (!st || +st.opacity !== 0 || st.pointerEvents === 'none') return null;
    if (checkVisibility && !checkVisibility(el, { visibilityProperty: true })) return null;
    const parent = composedParent(el);
    const pv = parent ? visibilityOf(parent, cache, true) : null;
    if (!pv || !pv.visible) return null;
    const r = getRect(el);
    const pr = pv.rect || getRect(parent);
    const w = mathMin(r.left + r.width, pr.left + pr.width) - mathMax(r.left, pr.left);
    const h = mathMin(r.top + r.height, pr.top + pr.height) - mathMax(r.top, pr.top);
    if (r.width < 4 || r.height < 4 || w <= 0 || h <= 0 ||
        w * h < 0.5 * mathMin(r.width * r.height, pr.width * pr.height)) return null;
    return { visible: true, reason: '', rect: r, view: pv.view, fixedRoot: pv.fixedRoot };
  }

  /**
   * A text field its component keeps transparent (a box around it at opacity 0) until it is
   * focused or filled, with the field's name drawn over it instead (Material Web's
   * md-outlined-text-field: the input is slotted into a content box at opacity 0; the resting
   * label is text in the field's own shadow root): the field a person sees, as the box of the
   * nearest visible component around it. Null for anything else: a transparent field without its
   * name drawn on it (a honeypot) stays hidden.
   */
  function namedFieldBehindVisibility(el, cache) {
    const tag = tagOf(el);
    if ((tag !== 'input' || NON_TEXT_INPUTS[lc(attr(el, 'type'))]) && tag !== 'textarea') return null;
    if (!checkVisibility || !checkVisibility(el, { visibilityProperty: true })) return null;  // not opacity
    const name = lc(collapse(attr(el, 'aria-label')) || controlLabelText(el));
    if (!name || name.length > 80) return null;
    let box = composedParent(el);
    for (let depth = 0; box && depth < 4 && !checkVisibility(box, VISIBILITY_CHECK); depth++) box = composedParent(box);
    if (!box || !checkVisibility(box, VISIBILITY_CHECK)) return null;
    const r = getRect(el);
    if (r.width < 4 || r.height < 4) return null;
    const drawnOver = (n) => boxesOverlap(getRect(n), r) && lc(collapse(textContent(n))) === name &&
        checkVisibility(n, VISIBILITY_CHECK);
    const roots = shadowRoot(box) ? [box, shadowRoot(box)] : [box];
    if (find(roots, (root) => find(queryAll(root, 'span, div, label, p'), drawnOver) !== null) === null) return null;
    const pv = visibilityOf(box, cache, true);
    return pv.visible ? { visible: true, reason: '', rect: r, view: pv.view, fixedRoot: pv.fixedRoot } : null;
  }

  /** Whether `box` draws a slider around its one control: other boxes beside it. */
  function drawsSlider(box) {
    const only = box && nodeType(box) === ELEMENT_NODE ? soleControlOf(box) : null;
    if (!only) return false;
    for (let c = firstElementChild(box); c; c = nextElementSibling(c)) if (c !== only) return true;
    return false;
  }

  /** What may be a transparent overlay (transparentOverlayVisibility). */
  function isOverlayKind(el) {
    const tag = tagOf(el);
    if (tag === 'select') return true;
    if (tag === 'input' || tag === 'textarea') {
      const type = lc(attr(el, 'type'));
      if (tag === 'input' && type === 'file') return true;
      // A checkbox or radio laid transparent over the small box that draws it (AG Grid's row
      // selection box): a person clicks the drawing, and the input takes the click.
      // Or over the box beside it that draws a switch (w2ui's toggle: the input at opacity 0
      // over the div after it).
      if (tag === 'input' && (type === 'checkbox' || type === 'radio')) {
        return drawsCheckBox(composedParent(el)) || drawsSwitchBeside(el);
      }
      // A range input laid transparent over the slider its box draws beside it, a rail and a
      // thumb (Fluent UI React's Slider): it takes the pointer and the keys.
      if (tag === 'input' && type === 'range') return drawsSlider(composedParent(el));
      if (tag === 'input' && NON_TEXT_INPUTS[type]) return false;
      // Only inside its own label: a transparent field without one is a honeypot or a focus trap.
      return !!wrappingLabelOf(el);
    }
    return (tag === 'button' || ariaRole(el) === 'button') &&
        !!(strTrim(attr(el, 'aria-label')) || strTrim(attr(el, 'aria-labelledby')));
  }

  function pseudoStyleOf(el, pseudo) {
    try {
      return getComputedStyle(windowOf(el), el, pseudo);
    } catch (e) {
      return null;
    }
  }

  /** A small box drawn with a border or a background (a checkbox's drawing), not a card. */
  function drawsCheckBox(box) {
    const st = box ? styleOf(box) : null;
    if (!st) return false;
    const r = getRect(box);
    if (r.width < 8 || r.height < 8 || r.width > 40 || r.height > 40) return false;
    return paintsBorderOrBackground(st) || (st.backgroundImage && st.backgroundImage !== 'none') ||
        !!find(['::before', '::after'], (p) => {
          const ps = pseudoStyleOf(box, p);
          return !!ps && ps.content !== 'none' && ps.content !== 'normal';
        });
  }

  /**
   * Whether the element next to a checkable draws it where it lies: a box of a switch's or a
   * check box's size (8 to 80 px wide, 8 to 40 high) with a border or a background, most of it
   * under the input.
   */
  function drawsSwitchBeside(el) {
    const r = getRect(el);
    return !!find([nextElementSibling(el), previousElementSibling(el)], (n) => {
      if (!n || isFormControl(n)) return false;
      const b = getRect(n);
      if (b.width < 8 || b.height < 8 || b.width > 80 || b.height > 40) return false;
      if (boxArea(intersect(boxOf(r), boxOf(b))) < 0.5 * b.width * b.height) return false;
      const st = styleOf(n);
      return !!st && paintsBorderOrBackground(st);
    });
  }

  /** Whether a computed style paints a box: a border or a background of a colour one sees. */
  function paintsBorderOrBackground(st) {
    return (parseFloatSafe(st.borderTopWidth) > 0 && visibleColor(st.borderTopColor)) || visibleColor(st.backgroundColor);
  }

  function visibleColor(c) { return !!c && c !== 'transparent' && !reTest(/rgba\([^)]*,\s*0\)$/, c); }

  /**
   * A read-only combobox input kept out of sight as the focus target of a select drawn around it
   * (Quasar's q-select: 1 px, transparent, inside the field's <label for>): the label is the
   * select a person clicks.
   */
  function isFocusTargetCombobox(el) {
    // (PrimeReact's Dropdown: a read-only input with aria-haspopup=listbox and no role.)
    return tagOf(el) === 'input' && hasAttribute(el, 'readonly') &&
        (ariaRole(el) === 'combobox' || attr(el, 'aria-haspopup') === 'listbox');
  }

  /**
   * For a visually hidden checkbox or radio with no label of its own: the visible box around it
   * that draws it with its text and takes the click (Fomantic UI's "ui checkbox": the input at
   * opacity 0 and z-index -1, a <label> without for beside it, a click handler on the box), or
   * null. The box holds no other control and reads like a label.
   */
  function drawnCheckableBox(el, cache) {
    // Rendered, only out of sight (opacity, z-index): not display:none, not hidden.
    if (!isRenderedBox(el) || labelsOf(el).length) return null;
    const box = parentElement(el);
    if (!box || tagOf(box) === 'body' || !soleControlOf(box)) return null;
    const text = collapse(safeInnerText(box));
    if (!text || text.length > 120 || !visibilityOf(box, cache, true).visible) return null;
    const r = getRect(box);
    return r.height <= 120 ? box : null;
  }

  /** The one control (input, select, textarea, button) inside `box`, or null: none or several. */
  function soleControlOf(box) {
    const list = queryAll(box, 'input, select, textarea, button');
    return list.length === 1 ? list[0] : null;
  }

  /**
   * A code editor's text input of no size of its own (Monaco: its EditContext host, 0 px wide at
   * the caret, or its 1 px textarea where the browser has no EditContext): multi-line, taking
   * text, in the box the editor draws its lines in.
   */
  function isCodeEditorInput(el) {
    const kind = editKind(el);
    if (kind === 'input') return false;
    return kind === 'textarea' || kind === 'editable' ||
        (ariaRole(el) === 'textbox' && attr(el, 'aria-multiline') === 'true');
  }

  /**
   * The box a person clicks and reads for such an editor: the nearest box around the input, up to
   * 4 up, that a person sees at 40 × 16 px or more, with the input (its caret) inside it. Null for
   * anything else (a field of no size elsewhere stays hidden).
   */
  function editorViewOf(el, cache) {
    if (!isCodeEditorInput(el) || (checkVisibility && !checkVisibility(el, { visibilityProperty: true }))) return null;
    const r = getRect(el);
    for (let n = composedParent(el), depth = 0; n && depth < 4; n = composedParent(n), depth++) {
      const tag = tagOf(n);
      if (tag === 'body' || tag === 'html' || tag === 'form') return null;
      const v = visibilityOf(n, cache, true);
      if (!v.visible) continue;
      const b = v.rect;
      if (b.width < 40 || b.height < 16) continue;
      const inside = r.left >= b.left - 1 && r.left <= b.left + b.width + 1 && r.top >= b.top - 1 &&
          r.top <= b.top + b.height + 1;
      return inside ? n : null;
    }
    return null;
  }

  /**
   * What such an editor shows: the text of its box, but of the parts it hides from assistive
   * technology (a gutter of line numbers, the input itself). Monaco draws only the lines in view.
   */
  function editorViewText(box) {
    let s = '';
    for (let c = firstElementChild(box); c; c = nextElementSibling(c)) {
      if (attr(c, 'aria-hidden') === 'true') continue;
      const t = collapse(safeInnerText(c));
      if (t) s = s ? s + ' ' + t : t;
    }
    return s;
  }

  /**
   * For a range input hidden inside the handle that draws it (react-aria's Slider: the input in
   * a clipped 1 px box inside the thumb): the handle, a small visible box around it that holds
   * no other control. Null if none.
   */
  function drawnThumbOf(el, cache) {
    for (let n = parentElement(el), depth = 0; n && depth < 3; n = parentElement(n), depth++) {
      if (!soleControlOf(n)) return null;
      if (!visibilityOf(n, cache, true).visible) continue;
      const r = getRect(n);
      return r.width <= 64 && r.height <= 64 ? n : null;
    }
    return null;
  }

  // The ARIA roles a native checkable's own kind of control may have.
  const CHECKABLE_ROLES = { radio: { radio: 1 }, checkbox: { checkbox: 1, switch: 1 } };

  /**
   * The handle of a slider drawn just before a hidden read-only text input that holds its value
   * (ion.rangeSlider: a track, a bar and a handle of spans with no ARIA, the input after them): of
   * the small boxes in the wide box before the input that the page listens to for presses, the
   * one taller than the others; null when there is none, or two as tall (a range's two handles:
   * no one value).
   */
  function drawnSliderHandleBefore(el, cache) {
    const type = lc(attr(el, 'type'));
    if (type && type !== 'text' && type !== 'number') return null;
    const box = previousElementSibling(el);
    if (!box || !visibilityOf(box, cache, true).visible) return null;
    const r = getRect(box);
    if (r.width < 80 || r.height > 120 || r.width < 2 * r.height) return null;
    const handles = filter(queryAll(box, '*'), (n) => {
      if (!wsHas(listened, n)) return false;
      const h = getRect(n);
      return h.width > 0 && h.width <= 48 && h.height > 0 && h.height <= 48 && visibilityOf(n, cache, true).visible;
    });
    // (Near the start the bar up to the handle is small too: the handle stands out of the track,
    // taller than anything else there.)
    const tallest = sortBy(handles, (n) => -getRect(n).height);
    if (tallest.length > 1 && getRect(tallest[1]).height >= getRect(tallest[0]).height) return null;
    return tallest.length ? tallest[0] : null;
  }

  /**
   * For a hidden native checkbox or radio: the ARIA one drawn beside it in its box, in the same
   * state (Webix's checkbox and radio: the input at display:none, a `button role=checkbox` after
   * it that takes the clicks), which is the control a person uses; null when there is none.
   */
  function ariaStandInOf(el) {
    if (!isNativeCheckable(el)) return null;
    const roles = CHECKABLE_ROLES[lc(attr(el, 'type'))];
    const box = parentElement(el);
    if (!box || queryAll(box, 'input').length !== 1) return null;
    const checked = !!inputChecked(el);
    return find(queryAll(box, '[role]'), (r) => r !== el && !!roles[ariaRole(r)] && isRenderedBox(r) &&
        (attr(r, 'aria-checked') === 'true') === checked) || null;
  }

  /**
   * A hidden native checkable that only carries a form's value for an ARIA control beside it in
   * the same label: Base UI's Radio, Checkbox and Switch are a `<span role=radio>` the person
   * clicks and an `aria-hidden` input the label's `for` names. The span is the control; the input
   * would list it twice.
   */
  function holdsValueOf(el, label) {
    if (!isNativeCheckable(el) || attr(el, 'aria-hidden') !== 'true' || tagOf(label) !== 'label') return false;
    const roles = CHECKABLE_ROLES[lc(attr(el, 'type'))];
    let boxes = null;
    try {
      boxes = elQsa(label, '[role]');
    } catch (e) {
      return false;
    }
    for (let i = 0; i < boxes.length; i++) {
      if (boxes[i] !== el && roles[ariaRole(boxes[i])] && isRenderedBox(boxes[i])) return true;
    }
    return false;
  }

  /** For visually hidden custom checkboxes: a visible <label> that toggles them. */
  function visibleLabelOf(el, cache) {
    const labels = labelsOf(el);
    for (let i = 0; i < labels.length; i++) {
      if (visibilityOf(labels[i], cache, true).visible) return labels[i];
    }
    return null;
  }

  function boxesOverlap(a, b) {
    return a.x < b.x + b.width && a.x + a.width > b.x && a.y < b.y + b.height && a.y + a.height > b.y;
  }

  function inFrameViewports(rect, chain) {
    for (let i = 0; i < chain.length; i++) {
      const r = topRect(chain[i], sliceArr(chain, 0, i));
      if (!boxesOverlap(rect, r)) return false;
    }
    return true;
  }

  /** The primary action of each form: its first submit button; plus primary-styled buttons. */
  function markPrimaries(items) {
    const seenForms = new B.Set();
    each(items, (item) => {
      if (item.role === 'primary') item.primary = true;
      if (item.role !== 'submit') return;
      const form = formOf(item.el) || composedParent(item.el);
      if (form && !setHas(seenForms, form)) {
        setAdd(seenForms, form);
        item.primary = true;
      }
    });
  }

  /**
   * Up to `max` items: pattern members first, then in `priority` order (document order, or
   * distance for near). The result keeps document order, which ids follow.
   */
  function chooseReturned(items, priority, important, max) {
    if (items.length <= max) return { list: items, truncated: false };
    const keep = new B.Set();
    let count = 0;
    each(priority, (item) => {
      if (count < max && setHas(important, item.el)) {
        setAdd(keep, item);
        count++;
      }
    });
    each(priority, (item) => {
      if (count < max && !setHas(keep, item)) {
        setAdd(keep, item);
        count++;
      }
    });
    return { list: filter(items, (item) => setHas(keep, item)), truncated: true };
  }

  function pageInfo() {
    const vp = viewportSize(TOP_DOC);
    return {
      url: str(docUrl(TOP_DOC)),
      title: str(docTitle(TOP_DOC)),
      viewport: { width: round(vp.width), height: round(vp.height) },
      scroll: pageScroll(TOP_DOC),
      ready_state: str(docReadyState(TOP_DOC)),
      document: DOCUMENT_TOKEN,
      submits: submitsSeen.count,
      last_submit: submitsSeen.form,
    };
  }

  /**
   * The element as the protocol gives it. `detailed`: with selector and xpath (building them is
   * the expensive part of a large scan). `active`: the focused element (deepActiveElement).
   */
  function elementJson(item, includeHidden, detailed, active) {
    const el = item.el;
    const tag = item.tag;
    const table = attributeTable(el);
    const stateJson = { visible: item.vis.visible, enabled: table['aria-disabled'] !== 'true' &&
      !isNativelyDisabled(el, tag), focused: active === el || (!!item.segments && includes(item.segments, active)) };
    // A single select shows the text of its choice (a person reads "June", not its value "5").
    // A placeholder choice (value "") shows nothing.
    const chosen = tag === 'select' && !selectMultiple(el) ? selectedInfo(el) : null;
    const joined = segmentsValue(item);
    const value = chosen ? (chosen.value === '' ? '' : chosen.text) : joined !== null ? joined : itemRawValue(item);
    if (value !== null) stateJson.value = truncate(maskIfPassword(el, value), 200);
    const checked = checkedState(el, tag, item.type);
    if (checked !== null) stateJson.checked = checked;
    const out = { id: item.id, type: item.type, role: item.role, tag, text: item.text };
    if (detailed) {
      out.selector = fullSelector(el, item.ctx.chain);
      out.xpath = xpathOf(el, item.ctx.chain);
    }
    out.rect = rectJson(item.rect);
    out.attributes = relevantAttributes(el, tag, item.type, table);
    if (item.segments) out.attributes.segments = '' + item.segments.length;
    if (item.sections) out.attributes.sections = join(item.sections, ' ');
    // ARIA 1.1's combobox: a box with the role around its text input (Blueprint's MultiSelect).
    // The input is what takes the text and opens the list: it carries the box's ARIA.
    const box = tag === 'input' && !table.role && !table['aria-haspopup'] ? comboboxBoxOf(el) : null;
    if (box) {
      out.attributes.role = 'combobox';
      for (const a of ['aria-haspopup', 'aria-expanded', 'aria-controls']) {
        const v = attr(box, a);
        if (v && out.attributes[a] === undefined) out.attributes[a] = truncate(v, 200);
      }
    }
    out.state = stateJson;
    out.modifiers = modifiersOf(item, stateJson, includeHidden, table);
    out.in_viewport = item.inViewport;
    out.key = item.key;
    out.frame = item.ctx.label || null;
    const form = formOf(el);
    if (form) out.form = formKey(form);
    const landmark = landmarkOf(el);
    if (landmark) out.landmark = landmark;
    if (tag === 'select') out.options = selectOptionTexts(el);
    else if (item.type === 'select') out.options = customOptionTexts(el);
    const aliases = aliasesOf(item, table);
    if (aliases.length) out.aliases = aliases;
    if (item.interactive === false) out.interactive = false;
    if (item.filtersForm) out.filters_form = true;
    if (item.context) out.context = item.context;
    if (item.distance !== undefined) out.distance = round(item.distance);
    return out;
  }

  function modifiersOf(item, st, includeHidden, table) {
    const out = [];
    const t = table || attributeTable(item.el);
    if (t.required !== undefined || t['aria-required'] === 'true') push(out, 'required');
    if (!st.enabled) push(out, 'disabled');
    if ((t.readonly !== undefined || t['aria-readonly'] === 'true') &&
        (item.type === 'input' || item.type === 'textarea')) {
      push(out, 'readonly');
    }
    if (includeHidden && !st.visible) push(out, 'hidden');
    if (item.primary) push(out, 'primary');
    if (st.checked === true) push(out, 'checked');
    if (st.checked === false) push(out, 'unchecked');
    // What an ARIA widget shows a person besides the check: the tab that is open, the chosen
    // option, the menu, accordion or combobox that is open (an open <details>' summary too).
    if (t['aria-selected'] === 'true') push(out, 'selected');
    if (t['aria-expanded'] === 'true' || openSummary(item.el)) push(out, 'expanded');
    if (st.focused) push(out, 'focused');
    return out;
  }

  function openSummary(el) {
    const parent = tagOf(el) === 'summary' ? parentElement(el) : null;
    return !!parent && tagOf(parent) === 'details' && hasAttribute(parent, 'open');
  }

  // A frame a browser extension put into the page (a password manager's menu, a translator's
  // bar): the browser's, not the page's, and nothing in it can be scanned or driven.
  function isExtensionFrame(f) {
    let src = attr(f.iframe, 'src') || '';
    try {
      src = f.iframe.src || src;
    } catch (e) {
      // keep the attribute
    }
    return reTest(/^(chrome|moz|safari-web|ms-browser)-extension:/i, str(src));
  }

  function frameJson(f) {
    let src = attr(f.iframe, 'src');
    try {
      src = f.iframe.src || src;
    } catch (e) {
      // keep the attribute
    }
    return {
      selector: fullSelector(f.iframe, f.ctx.chain),
      src: str(src),
      name: attr(f.iframe, 'name') || undefined,
      cross_origin: !f.doc,
      rect: rectJson(topRect(f.iframe, f.ctx.chain)),
    };
  }

  // ----- near: keep elements close to a piece of text -----

  /**
   * Elements showing `want` (lower-cased, collapsed): parents of text nodes that contain it, then
   * elements whose aria-label/placeholder/title/value do. Visible ones only unless `anyVisibility`;
   * with `firstOnly`, stops at the first.
   */
  function elementsWithText(want, roots, firstOnly, anyVisibility) {
    const found = [];
    const keep = (el) => el && (anyVisibility || isVisible(el)) && !includes(found, el);
    each(roots, (root) => {
      if (firstOnly && found.length) return;
      const doc = nodeType(root) === DOCUMENT_NODE ? root : ownerDocument(root);
      const walker = docCreateTreeWalker(doc, root, 4 /* SHOW_TEXT */);
      for (let n = walker.nextNode(); n && !(firstOnly && found.length); n = walker.nextNode()) {
        if (!contains_(lc(collapse(nodeValue(n))), want)) continue;
        const el = parentElement(n);
        if (keep(el)) push(found, el);
      }
      if (firstOnly && found.length) return;
      each(queryAll(root, '[aria-label], [placeholder], [title], input[value]'), (el) => {
        if (firstOnly && found.length) return;
        if (contains_(lc(attr(el, 'aria-label') + ' ' + attr(el, 'placeholder') + ' ' + attr(el, 'title') + ' ' +
            attr(el, 'value')), want) && keep(el)) {
          push(found, el);
        }
      });
    });
    return found;
  }

  /** The first visible element whose text contains `needle` (case-insensitive). */
  function nearAnchor(needle, roots) {
    const best = elementsWithText(lc(collapse(needle)), roots, true, false)[0] || null;
    if (!best) {
      throw fail('ELEMENT_NOT_FOUND', 'no visible text "' + needle + '" on the page for near; ' +
          'scan without near or use text that is shown on the page');
    }
    return { el: best, rect: topRect(best, frameChainOf(best)) };
  }

  function boxDistance(a, b) {
    const dx = mathMax(0, a.x - (b.x + b.width), b.x - (a.x + a.width));
    const dy = mathMax(0, a.y - (b.y + b.height), b.y - (a.y + a.height));
    return mathSqrt(dx * dx + dy * dy);
  }

  /** Items within NEAR_RADIUS px of `rect`, in document order, each with its `distance`. */
  function withinRadius(items, rect) {
    return filter(items, (item) => {
      item.distance = boxDistance(item.rect, rect);
      return item.distance <= NEAR_RADIUS;
    });
  }

  // ===============================================================================================
  // 12. Patterns (spec §5): login_form, search_form, pagination, modal_dialog, cookie_banner,
  //     overlay, notification_toast, promo_popup. Each returns element refs of the same scan.
  // ===============================================================================================
  const PAT = {
    close: /^(\u00d7|\u2715|\u2716|\u2573|\u2717|x|close|dismiss|no,? thanks|no thank you|not now|maybe later|skip|cancel|hide|close (this )?(dialog|window|popup|pop-up|banner|message|notification|modal))$/i,
    closeAttr: /(^|[\s_-])(close|dismiss)([\s_-]|$)|close|dismiss/i,
    // Consent managers name their boxes (OneTrust, Cookiebot's Cybot..., CookieYes' cky-,
    // Complianz' cmplz-, Borlabs' brlbs-, Quantcast's qc-cmp2, Sourcepoint's sp_message...).
    cookieAttr: /cookie|consent|gdpr|ccpa|(^|[\s_-])cmp([\s_-]|$)|onetrust|didomi|cookiebot|cybot|usercentrics|truste|quantcast|qc-cmp|iubenda|osano|termly|cookielaw|cky-|cmplz|brlbs|borlabs|axeptio|klaro|orejime|tarteaucitron|sp_message|cc-window|cc-banner|privacy|datenschutz/i,
    // What a consent box talks about, in en, de, fr, es, it, nl, pt, pl ("cookie" is shared).
    cookieText: /cookie|consent|gdpr|personal (?:data|information)|tracking technolog|privacy|datenschutz|personenbezogen|donn[ée]es personnelles|informations personnelles|confidentialit[ée]|datos personales|dati personali|persoonsgegevens|dados pessoais|dane osobowe|einwilligung|zustimmung|consentement|vie priv[ée]e|traceurs|t[ée]moins|privacidad|consentimiento|consenso|riservatezza|toestemming|privacidade|consentimento|prywatno|ciasteczk|zgod[ęya]/i,
    // The labels of a consent box's three choices (en, de, fr, es, it, nl, pt, pl), tested on
    // consentLabel(name), lower case (no i/u flags: they cost 5x on every control of a page).
    // accept: the label starts with the choice ("Accept all", "That's ok",
    // "OK for me", "Alle akzeptieren", "Tout accepter", "Aceptar todo", "Accetta tutti", "Alles
    // accepteren", "Aceitar todos", "Zaakceptuj wszystkie"); reject and settings: anywhere in it.
    accept: /^[^a-z0-9\u00c0-\u024f]*(?:cookies?\s*:\s*)?(?:(?:yes|oui|ja|s[ií]|sim|tak|ok|okay)[,!.]?\s+)?(?:(?:i|je|ich|ik|eu)\s+)?(?:(?:all|alle[sn]?|tout|todos?|todas|tutt[oi]|wszystkie)\s+)?(?:(?:the\s+)?cookies?\s+)?(?:accept|agree|allow|consent|enable all|ok\b|okay|yes\b|oui\b|ja\b|tak\b|got it|i understand|understood|that'?s (?:ok|okay|fine|alright)|sounds good|fine by me|continue with (?:all|cookies|recommended)|akzeptier|annehm|zustimm|stimme zu|zulass|einverstanden|erlaub|verstanden|j'accepte|autoris|d'accord|compris|j'ai compris|acept|permit|de acuerdo|entendido|vale\b|accett|acconsent|ho capito|va bene|accepteer|akkoord|toestaan|ga akkoord|prima\b|aceit|concord|entendi|akceptuj|zaakceptuj|zgadzam|zgoda|zezw|rozumiem|przejd[zź] do serwisu)/,
    // Accept-looking labels that only confirm the current selection (often everything off).
    acceptSelection: /selection|selected|auswahl|s[ée]lection|selecci[oó]n|selezion|selectie|sele[cç][aã]o|wybran|\bsave\b|speichern|enregistrer|guardar|salva|opslaan|salvar|zapisz|confirm my choices/,
    // "All" in the label: the accept that turns every category on.
    acceptAll: /\ball\b|\balle[sn]?\b|\btout\b|\btod[oa]s?\b|\btutt[oi]\b|wszystk|everything/,
    reject: /reject|decline|deny|refuse|disagree|do not (?:accept|agree|allow|consent)|don'?t (?:accept|agree|allow)|(?:necessary|essential|required|functional) (?:cookies )?only|only (?:the )?(?:strictly )?(?:necessary|essential|required|functional)|use (?:only )?(?:strictly )?necessary|strictly necessary|continue without|without (?:accepting|agreeing|consent)|no,? thanks|no thank you|opt[- ]out|ablehnen|verweiger|nicht (?:zustimmen|akzeptieren|einverstanden)|nur (?:technisch )?(?:notwendige|essenzielle|essentielle|erforderliche|funktionale)|ohne (?:zustimmung|einwilligung|cookies)|nein,? danke|refus|rejet|sans accepter|continuer sans|uniquement (?:les )?(?:cookies )?(?:n[ée]cessaires|essentiels)|n[ée]cessaires uniquement|essentiels uniquement|non,? merci|rechaz|denegar|s[oó]lo (?:las )?(?:cookies )?(?:necesarias|esenciales|imprescindibles)|sin aceptar|no,? gracias|no acepto|rifiut|\bnega\b|solo (?:i )?(?:cookie )?(?:necessari|essenziali|tecnici)|senza accettare|no,? grazie|weiger|afwijzen|wijs af|alleen (?:noodzakelijke?|essenti[eë]le|functionele)|nee,? bedankt|rejeit|recus|apenas (?:os )?(?:cookies )?(?:necess[aá]rios|essenciais)|somente (?:os )?(?:necess[aá]rios|essenciais)|n[aã]o,? obrigad|n[aã]o aceito|odrzu|odm[oó]w|odmawiam|nie zgadzam|nie akceptuj|tylko (?:niezb[eę]dne|wymagane|konieczne)|kontynuuj bez/,
    settings: /settings|manage|preferences|customi[sz]e|options|choices|configure|let me choose|i choose|learn more|more info|einstellungen|anpassen|verwalten|optionen|individuell|mehr erfahren|param[eè]tr|personnalis|g[ée]rer|pr[ée]f[ée]rences|je choisis|en savoir plus|configur|personaliz|ajustes|preferencias|gestionar|m[aá]s opciones|impostazioni|personalizza|gestisci|preferenze|opzioni|scopri di pi[uù]|instellingen|aanpassen|beheren|voorkeuren|opties|meer informatie|defini[cç][oõ]es|gerir|gerenciar|prefer[eê]ncias|op[cç][oõ]es|saber mais|ustawienia|dostosuj|zarz[aą]dzaj|preferencje|opcje|wi[eę]cej/,
    promo: /newsletter|subscribe|discount|% ?off|\boffer\b|coupon|promo|special deal|free shipping|sign up for|join our|exclusive/i,
    // What the box is about; "popup" only says how it appears (dialogAttr has it).
    promoAttr: /promo|newsletter|subscribe|offer|exit-intent|discount/i,
    toastAttr: /toast|snackbar|notification|notice|flash|alert-dismissible|growl/i,
    dialogAttr: /(^|[\s_-])(modal|dialog|popup|pop-up|popover|lightbox)([\s_-]|$)|modal|dialog|popup/i,
    popupPart: /(^|[\s_-])(modal|dialog|popup|toast|snackbar|notification|lightbox)[_-]+(header|body|footer|title|content|inner|close|btn|button|backdrop|trigger|open|toggle|wrapper|container|overlay|dialog|text|message|actions|label|icon)/i,
    next: /^(next|next page|older|\u203a|\u00bb|\u2192|>|>>|forward)$/i,
    prev: /^(prev|previous|previous page|newer|\u2039|\u00ab|\u2190|<|<<|back)$/i,
    pageNumber: /^(page\s*)?\d+$/i,
    pagination: /pagin|pager|paging|page-numbers|page navigation|pages/i,
    calendar: /calendar|date|picker|month|week/i,
    // Whole words: "Forgot Password?" holds "go".
    loginSubmit: /\b(?:sign ?in|log ?in|login|continue|next|submit|enter|go)\b/i,
    signupSubmit: /sign ?up|register|create (an )?account|join/i,
    remember: /remember|keep me|stay signed|stay logged|trust this/i,
    searchButton: /search|\bgo\b|find|submit|suche|buscar/i,
  };

  // Where popups start (was the selector 'dialog[open], [role=dialog], [role=alertdialog],
  // [aria-modal=true], [role=status], [role=alert], [aria-live=polite], [aria-live=assertive],
  // [class*=modal i], ... [id*=modal i], ...'): see signalBoxes, which applies these rules.
  const POPUP_CLASS =
      /modal|dialog|popup|lightbox|toast|snackbar|notification|overlay|newsletter|promo/i;
  const POPUP_ID = /modal|popup|dialog|newsletter|promo|toast|overlay/i;

  /**
   * The elements of `root` (document or shadow root) where popups and messages may start, in
   * document order: {popups, messages}. Equal to querySelectorAll with the two selectors quoted at
   * POPUP_CLASS and MESSAGE_CLASS, without their cost (a dozen substring tests per element):
   * recorded by collect() during the walk, else computed here once per root and scan.
   */
  function signalBoxes(walk, root) {
    let boxes = mapGet(walk.boxes, root);
    if (boxes) return boxes;
    let list = [];
    try {
      list = queryAll(root, '[class], [id], [role], [aria-live], [aria-modal], dialog');
    } catch (e) {
      list = [];
    }
    const sorter = newSignalSorter(root);
    for (let i = 0; i < list.length; i++) sorter.add(list[i]);
    mapSet(walk.boxes, root, sorter.boxes);
    return sorter.boxes;
  }

  /** Sorts the elements of one root given in document order into {popups, messages}. */
  function newSignalSorter(root) {
    const boxes = { popups: [], messages: [] };
    const rare = new B.Set(); // the few elements whose role, aria-live or aria-modal matter
    try {
      const marked = queryAll(root, '[role], [aria-live], [aria-modal=true], dialog[open]');
      for (let i = 0; i < marked.length; i++) setAdd(rare, marked[i]);
    } catch (e) {
      // none
    }
    const doc = nodeType(root) === DOCUMENT_NODE ? root : ownerDocument(root);
    const quirks = !!doc && docCompatMode(doc) === 'BackCompat';
    const tokens = quirks ? MESSAGE_TOKENS_QUIRKS : MESSAGE_TOKENS;
    const classes = new B.Map(); // class attribute -> [popup, message] (classes repeat a lot)
    const add = (el) => {
      let popup = false;
      let message = false;
      const cls = getAttribute(el, 'class');
      if (cls) {
        let c = mapGet(classes, cls);
        if (!c) {
          const any = reTest(SIGNAL_CLASS, cls);
          c = [any && reTest(POPUP_CLASS, cls),
            any && (reTest(MESSAGE_CLASS, cls) || reTest(tokens, cls))];
          mapSet(classes, cls, c);
        }
        popup = c[0];
        message = c[1];
      }
      const id = getAttribute(el, 'id');
      if (id && reTest(SIGNAL_ID, id)) {
        popup = popup || reTest(POPUP_ID, id);
        message = message || reTest(MESSAGE_ID, id);
      }
      if (setHas(rare, el)) {
        const role = getAttribute(el, 'role');
        const live = getAttribute(el, 'aria-live');
        const liveOrRole = live === 'polite' || live === 'assertive' || role === 'status' ||
            role === 'alert';
        popup = popup || liveOrRole || role === 'dialog' || role === 'alertdialog' ||
            getAttribute(el, 'aria-modal') === 'true' ||
            (tagOf(el) === 'dialog' && hasAttribute(el, 'open'));
        message = message || liveOrRole;
      }
      if (popup) push(boxes.popups, el);
      if (message) push(boxes.messages, el);
    };
    return { boxes, add };
  }

  /** Runs every detector; returns {list, important} (important: elements that patterns use). */
  function detectPatterns(items, walk, vp, rules) {
    // pc: the detection context. `claimed` containers belong to a pattern already; `important`
    // elements are kept first when max_elements truncates. `all` is the scan's item list, where
    // pack patterns register the elements the scan did not list.
    const pc = { items: filter(items, (i) => i.vis.visible), all: items, walk, vp, claimed: [],
      list: [], important: new B.Set() };
    detectRulePatterns(pc, rules); // first: a vendor's pattern wins over the generic rules
    detectCookieBanner(pc);
    detectPopups(pc);
    detectLoginForm(pc);
    detectSearchForm(pc);
    detectPagination(pc);
    return { list: pc.list, important: pc.important };
  }

  /** A pattern: claims its container and marks its elements important. `fields` hold items. */
  function claimPattern(pc, name, container, fields, extra) {
    each(objectKeys(fields), (k) => {
      const v = fields[k];
      if (isArray(v)) each(v, (i) => setAdd(pc.important, i.el));
      else if (v) setAdd(pc.important, v.el);
    });
    setAdd(pc.important, container);
    push(pc.claimed, container);
    return { name, container, fields, extra: extra || {} };
  }

  function addPattern(pc, name, container, fields, extra) {
    push(pc.list, claimPattern(pc, name, container, fields, extra));
  }

  function patternJson(p) {
    const out = { name: p.name, container: fullSelector(p.container, frameChainOf(p.container)) };
    each(objectKeys(p.fields), (k) => {
      const v = p.fields[k];
      if (isArray(v)) out[k] = map(filter(v, (i) => i.id > 0), (i) => i.id);
      else if (v && v.id > 0) out[k] = v.id;
    });
    each(objectKeys(p.extra), (k) => { if (p.extra[k] !== '' && p.extra[k] !== null) out[k] = p.extra[k]; });
    return out;
  }

  function itemsIn(pc, container) {
    return filter(pc.items, (i) => composedContains(container, i.el));
  }

  function isClaimed(pc, el) {
    return find(pc.claimed, (c) => composedContains(c, el)) !== null;
  }

  function attrSignals(el) {
    return elId(el) + ' ' + attr(el, 'class') + ' ' + attr(el, 'aria-label') + ' ' +
        attr(el, 'data-testid') + ' ' + attr(el, 'name');
  }

  function isClickable(item) {
    return item.type === 'button' || item.type === 'link' || item.type === 'generic' ||
        item.type === 'menuitem' || item.type === 'tab' || item.type === 'option' ||
        item.type === 'row' || item.type === 'item';
  }

  function isCloseControl(item) {
    if (!isClickable(item)) return false;
    if (reTest(PAT.close, item.name)) return true;
    const signals = attr(item.el, 'aria-label') + ' ' + attr(item.el, 'title') + ' ' +
        attr(item.el, 'class') + ' ' + elId(item.el) + ' ' + attr(item.el, 'data-dismiss') +
        ' ' + attr(item.el, 'data-bs-dismiss');
    return reTest(PAT.closeAttr, signals) && item.name.length <= 20;
  }

  function firstMatch(list, fn) { return find(list, fn); }

  function isPositioned(el) {
    const st = styleOf(el);
    return !!st && (st.position === 'fixed' || st.position === 'sticky' || st.position === 'absolute');
  }

  function isFixed(el) {
    for (let n = el; n; n = composedParent(n)) {
      const st = styleOf(n);
      if (st && (st.position === 'fixed' || st.position === 'sticky')) return true;
    }
    return false;
  }

  /** Elements that ARIA marks as a popup root: dialogs and live regions. */
  function isAriaPopup(el) {
    const role = ariaRole(el);
    return isDialogish(el) || role === 'status' || role === 'alert' ||
        attr(el, 'aria-live') === 'polite' || attr(el, 'aria-live') === 'assertive';
  }

  /** A part of a component (header, body of a dialog or toast) sits inside its ARIA root. */
  function ariaPopupAncestor(el) {
    let n = composedParent(el);
    for (let depth = 0; n && depth < 6; depth++, n = composedParent(n)) if (isAriaPopup(n)) return n;
    return null;
  }

  /**
   * The text field (input or combobox) that `popup` is the open popup of, or null: one that is
   * expanded, says it has a popup, and names `popup` (aria-controls) or stands beside it in the
   * same component (up to two boxes up: Vaadin's calendar beside its input in the date picker).
   */
  function fieldPopupOwner(popup) {
    const FIELD = 'input[aria-expanded=true][aria-haspopup], [role=combobox][aria-expanded=true][aria-haspopup]';
    const id = elId(popup);
    for (let n = composedParent(popup), depth = 0; n && depth < 2; n = composedParent(n), depth++) {
      const tag = tagOf(n);
      if (tag === 'body' || tag === 'html') break;
      const fields = queryAll(n, FIELD);
      for (let i = 0; i < fields.length; i++) {
        const f = fields[i];
        if (!hasItsPopupOpen(f) || composedContains(popup, f)) continue;
        const controls = strSplit(collapse(attr(f, 'aria-controls')), ' ');
        if (!attr(f, 'aria-controls') || (id && includes(controls, id))) return f;
      }
    }
    return null;
  }

  /** Whether every item of `own` (those in `box`) is in a listbox or menu inside `box`. */
  function holdsOnlyAList(box, own) {
    const lists = queryAll(box, '[role=listbox], [role=menu]');
    return lists.length > 0 && !find(own, (i) => !find(lists, (l) => composedContains(l, i.el)));
  }

  /** Whether `el` says it has a popup (aria-haspopup) and that it is open (aria-expanded). */
  function hasItsPopupOpen(el) {
    const kind = lc(attr(el, 'aria-haspopup'));
    return attr(el, 'aria-expanded') === 'true' && kind !== '' && kind !== 'false';
  }

  function isDialogish(el) {
    return tagOf(el) === 'dialog' || ariaRole(el) === 'dialog' || ariaRole(el) === 'alertdialog' ||
        attr(el, 'aria-modal') === 'true';
  }

  function elementText(el) { return collapse(safeInnerText(el)); }

  // ----- cookie_banner -----

  /** A label as the consent vocabulary reads it: lower case, typographic apostrophes plain. */
  function consentLabel(name) { return strReplace(lc(name), /[\u2019\u2018`\u00b4]/g, "'"); }

  function isRejectLabel(item) { return reTest(PAT.reject, consentLabel(item.name)); }

  function isAcceptLabel(item) {
    const label = consentLabel(item.name);
    return reTest(PAT.accept, label) && !reTest(PAT.reject, label) && !reTest(PAT.acceptSelection, label);
  }

  /** A consent choice of either kind (one lower-casing, the anchored test first). */
  function isConsentChoice(item) {
    const label = consentLabel(item.name);
    return (reTest(PAT.accept, label) && !reTest(PAT.acceptSelection, label)) || reTest(PAT.reject, label);
  }

  /**
   * The accept, reject, settings and close controls among `inside` (items of one banner), by
   * the multilingual vocabulary: an accept that says "all" wins over a plain one ("Allow all"
   * over "Allow selection", which confirms the current choice). `taken` fields are kept.
   */
  function consentControls(inside, taken) {
    const f = taken || {};
    const used = (x) => x === f.accept || x === f.reject || x === f.settings || x === f.close;
    const clickable = filter(inside, isClickable);
    if (!f.reject) f.reject = firstMatch(clickable, (x) => !used(x) && isRejectLabel(x));
    if (!f.accept) {
      const accepts = filter(clickable, (x) => !used(x) && isAcceptLabel(x));
      f.accept = firstMatch(accepts, (x) => reTest(PAT.acceptAll, consentLabel(x.name))) ||
          accepts[0] || null;
    }
    if (!f.settings) {
      const settings = (x) => !used(x) && reTest(PAT.settings, consentLabel(x.name));
      f.settings = firstMatch(clickable, (x) => x.type === 'button' && settings(x)) ||
          firstMatch(clickable, settings);
    }
    if (!f.close) f.close = firstMatch(inside, (x) => !used(x) && isCloseControl(x));
    return f;
  }

  function detectCookieBanner(pc) {
    // A consent manager's own pattern (pattern_rules) already holds its banner.
    const vendor = filter(pc.list, (p) => p.name === 'cookie_banner');
    const insideVendor = (el) => find(vendor, (p) => composedContains(p.container, el)) !== null;
    for (let i = 0; i < pc.items.length; i++) {
      const item = pc.items[i];
      if (!isClickable(item) || !isConsentChoice(item) || insideVendor(item.el)) {
        continue;
      }
      const container = cookieContainer(item.el);
      if (!container || isClaimed(pc, container) ||
          find(vendor, (p) => composedContains(container, p.container))) {
        continue;
      }
      const fields = consentControls(itemsIn(pc, container));
      if (!fields.accept && !fields.reject) continue;
      addPattern(pc, 'cookie_banner', container, fields);
      return;
    }
  }

  /** Nearest ancestor of an accept/reject control that is a cookie/consent banner. */
  function cookieContainer(el) {
    let depth = 0;
    for (let n = composedParent(el); n && depth < 12; n = composedParent(n), depth++) {
      const tag = tagOf(n);
      if (tag === 'body') return consentFrameBody(n);
      if (tag === 'html') return null;
      const byAttr = reTest(PAT.cookieAttr, attrSignals(n));
      const framed = isDialogish(n) || isPositioned(n) || ariaRole(n) === 'region' ||
          ariaRole(n) === 'banner';
      if (!byAttr && !framed) continue;
      const text = elementText(n);
      if (text.length > 3000) return null;
      if (reTest(PAT.cookieText, text) && (byAttr || isFixed(n) || isDialogish(n))) {
        return outermostCookieContainer(n);
      }
    }
    return null;
  }

  /**
   * The body of a frame whose whole document is a consent message (a consent manager's own
   * iframe, as TrustArc's and Sourcepoint's): short, about cookies or consent. Never the top
   * page's body.
   */
  function consentFrameBody(body) {
    const doc = ownerDocument(body);
    const framed = doc !== TOP_DOC ? frameChainOf(body).length > 0 : inForeignFrame();
    if (!framed) return null;
    const text = elementText(body);
    return text.length <= 3000 && reTest(PAT.cookieText, text) ? body : null;
  }

  /** Widen to the outermost ancestor still named like a consent banner (e.g. #onetrust-banner). */
  function outermostCookieContainer(el) {
    let best = el;
    let depth = 0;
    for (let n = composedParent(el); n && depth < 4; n = composedParent(n), depth++) {
      const tag = tagOf(n);
      if (tag === 'body' || tag === 'html') break;
      if (reTest(PAT.cookieAttr, attrSignals(n))) best = n;
    }
    return best;
  }

  // ----- pack patterns: rules as data (packs/*/patterns.yaml, intent-engine.md §9.3) -----
  //
  // The scan's `pattern_rules` parameter: [{name, provides, detection: {container, frame,
  // url_contains, url_matches, text_contains}, elements: {<field>: {selector, xpath, text,
  // text_contains, role}}}]. A rule whose detection holds yields the pattern `provides` (or its
  // own name) with `vendor` = the rule's name; each element is found inside the container
  // (piercing open shadow roots) and becomes a field holding its element id. A rule that
  // cannot be read (a bad selector or regex) is skipped.

  const RegExpCtor = (/x/).constructor; // the scanner realm's RegExp, as literals use it

  function detectRulePatterns(pc, allRules) {
    if (!isArray(allRules) || !allRules.length) return;
    // A site pack's rules carry detection.hosts (the engine adds them): only on those hosts.
    const host = pageHost();
    const rules = filter(allRules, (r) => !(r && r.detection && isArray(r.detection.hosts)) ||
        find(r.detection.hosts, (h) => hostMatches(str(h), host)) !== null);
    if (!rules.length) return;
    pc.ruleHits = ruleContainerHits(pc, rules);
    let registered = false;
    each(rules, (rule) => {
      if (!rule || typeof rule !== 'object' || isArray(rule)) return;
      try {
        registered = evaluateRule(pc, rule) || registered;
      } catch (e) {
        // an unreadable rule detects nothing
      }
    });
    // Elements the scan had not listed got a place in document order: keys follow.
    if (registered) assignKeys(pc.all);
  }

  /** The top document's host name, lower-case ('' for about:, data:, file:). */
  function pageHost() {
    const m = B.reExec(/^https?:\/\/(?:[^@/?#]*@)?(\[[^\]]*\]|[^:/?#]*)/i, str(docUrl(TOP_DOC)));
    return m ? lc(m[1]) : '';
  }

  /** "github.com" is that host; "*.github.com" its subdomains; "*" any host. */
  function hostMatches(glob, host) {
    if (glob === '*') return true;
    if (strSlice(glob, 0, 2) === '*.') {
      const base = strSlice(glob, 1);  // ".github.com"
      return host.length > base.length && strSlice(host, host.length - base.length) === base;
    }
    return host === glob;
  }

  function textList(v) {
    const list = isArray(v) ? v : [v];
    return filter(map(list, (t) => (typeof t === 'string' || typeof t === 'number' ? str(t) : '')),
        (t) => t !== '');
  }

  /** Any text of `v` (a text or a list) inside `hay`, case- and space-insensitively. */
  function containsAnyText(hay, v) {
    const h = consentLabel(collapse(hay));
    return find(textList(v), (t) => contains_(h, consentLabel(collapse(t)))) !== null;
  }

  /** Returns true when it registered elements the scan had not listed. */
  function evaluateRule(pc, rule) {
    const det = rule.detection && typeof rule.detection === 'object' ? rule.detection : {};
    const url = str(docUrl(TOP_DOC));
    if (hasOwn(det, 'url_contains') && !find(textList(det.url_contains), (t) => contains_(url, t))) {
      return false;
    }
    if (hasOwn(det, 'url_matches') && !reTest(new RegExpCtor(str(det.url_matches)), url)) return false;
    let container = null;
    if (hasOwn(det, 'container')) {
      container = ruleContainer(pc, str(det.container), hasOwn(det, 'frame') ? str(det.frame) : '');
      if (!container || isClaimed(pc, container)) return false;
    }
    if (hasOwn(det, 'text_contains')) {
      const scope = container || docBody(TOP_DOC);
      if (!scope || !containsAnyText(safeInnerText(scope), det.text_contains)) return false;
    }
    const name = str(rule.provides || rule.name);
    if (!name) return false;
    const before = pc.all.length;
    const fields = {};
    const elements = rule.elements && typeof rule.elements === 'object' ? rule.elements : {};
    each(objectKeys(elements), (k) => {
      const item = ruleElement(pc, container, elements[k]);
      if (item) fields[k] = item;
    });
    // A consent banner's choices the rule does not name come from the vocabulary.
    if (name === 'cookie_banner' && container) consentControls(itemsIn(pc, container), fields);
    const extra = { vendor: str(rule.name || '') };
    if (container) addPattern(pc, name, container, fields, extra);
    else {
      // A page-wide pattern (url or text only) claims no container: its elements stay free.
      each(objectKeys(fields), (k) => setAdd(pc.important, fields[k].el));
      push(pc.list, { name, container: docBody(TOP_DOC) || docElement(TOP_DOC), fields, extra });
    }
    return pc.all.length !== before;
  }

  /**
   * One query per root for all the plain container selectors (a page has many shadow roots and
   * a pack many rules): the elements any of them matches, in walk order; null when one selector
   * is unreadable (each rule then queries alone, and the bad one fails alone).
   */
  function ruleContainerHits(pc, rules) {
    const sels = [];
    each(rules, (r) => {
      const c = r && r.detection && typeof r.detection === 'object' ? r.detection.container : null;
      if (typeof c === 'string' && c && !contains_(c, '>>>')) push(sels, c);
    });
    if (!sels.length) return [];
    try {
      return flatMap(pc.walk.roots, (root) => queryAll(root, join(sels, ', ')));
    } catch (e) {
      return null;
    }
  }

  /** True inside a frame whose parent this world cannot reach (a cross-origin frame's scan). */
  function inForeignFrame() {
    try {
      const parent = TOP_WINDOW.parent;
      if (!parent || parent === TOP_WINDOW) return false;
      return !parent.document;
    } catch (e) {
      return true;
    }
  }

  /**
   * The first shown element matching `selector` in the document, its open shadow roots and
   * same-origin frames ("A >>> B" walks explicitly). With `frame` (an iframe selector), only
   * inside matching frames; a cross-origin frame's own scan looks in its document.
   */
  function ruleContainer(pc, selector, frame) {
    let found;
    if (contains_(selector, '>>>')) found = resolveAll(selector);
    else {
      let roots = pc.walk.roots;
      if (frame && !inForeignFrame()) {
        const docs = [];
        each(pc.walk.frames, (f) => {
          if (f.doc && matches(f.iframe, frame)) push(docs, f.doc);
        });
        roots = filter(roots, (r) => includes(docs, nodeType(r) === DOCUMENT_NODE ? r : ownerDocument(r)));
      }
      const inRoots = (el) => includes(roots, getRootNode(el));
      found = pc.ruleHits ? filter(pc.ruleHits, (el) => matches(el, selector) && inRoots(el))
          : flatMap(roots, (r) => queryAll(r, selector));
    }
    // Shown: visible itself, or holding a visible control (a host whose content is all in
    // its shadow root may have no box of its own).
    return find(found, (el) => isVisible(el) ||
        find(pc.items, (i) => composedContains(el, i.el)) !== null) || null;
  }

  /** Elements matching `selector` inside `container` (or anywhere), through open shadow roots. */
  function queryDeep(pc, container, selector) {
    if (contains_(selector, '>>>')) {
      return filter(resolveAll(selector), (el) => !container || composedContains(container, el));
    }
    if (!container) return flatMap(pc.walk.roots, (r) => queryAll(r, selector));
    const out = [];
    each(queryAll(container, selector), (el) => push(out, el));
    each(pc.walk.roots, (r) => {
      if (nodeType(r) === DOCUMENT_NODE) {
        const view = docView(r);
        let host = null;
        try {
          host = view && view.frameElement;
        } catch (e) {
          host = null;
        }
        if (host && composedContains(container, host)) each(queryAll(r, selector), (el) => push(out, el));
      } else if (composedContains(container, srHost(r))) {
        each(queryAll(r, selector), (el) => push(out, el));
      }
    });
    return out;
  }

  /** The item of the first shown element that an element rule finds, or null. */
  function ruleElement(pc, container, spec) {
    if (!spec || typeof spec !== 'object') return null;
    let found;
    if (spec.selector) found = queryDeep(pc, container, str(spec.selector));
    else if (spec.xpath) {
      const scope = container || docElement(TOP_DOC);
      found = evaluateXPath(ownerDocument(scope), scope, str(spec.xpath), str(spec.xpath));
    } else {
      found = map(filter(pc.items, (i) => isClickable(i) && (!container || composedContains(container, i.el))),
          (i) => i.el);
    }
    for (let i = 0; i < found.length; i++) {
      const el = found[i];
      if (!isVisible(el)) continue;
      const item = itemForElement(pc, el);
      if (!item) continue;
      // What a person reads on it: its accessible name or its visible text.
      const names = [item.name, collapse(safeInnerText(el))];
      if (hasOwn(spec, 'text') &&
          !find(names, (n) => consentLabel(n) === consentLabel(collapse(str(spec.text))))) {
        continue;
      }
      if (hasOwn(spec, 'text_contains') && !containsAnyText(join(names, ' '), spec.text_contains)) continue;
      if (spec.role && !ruleRoleHolds(item, str(spec.role))) continue;
      return item;
    }
    return null;
  }

  function ruleRoleHolds(item, role) {
    const r = lc(role);
    return r === item.type || r === item.role || r === ariaRole(item.el) || r === item.tag ||
        (r === 'text' && item.type === 'input');
  }

  /**
   * The scan item for `el`: its own; the control it is part of (a label span inside a button);
   * the one control it wraps; else a new item, registered in document order.
   */
  function itemForElement(pc, el) {
    let own = find(pc.all, (i) => i.el === el);
    if (own) return own;
    let up = composedParent(el);
    for (let depth = 0; up && depth < 3; depth++, up = composedParent(up)) {
      own = find(pc.all, (i) => i.el === up);
      if (own) return own;
    }
    const inner = filter(pc.all, (i) => composedContains(el, i.el));
    if (inner.length === 1) return inner[0];
    return registerElement(pc, el);
  }

  function registerElement(pc, el) {
    const item = measure({ el, ctx: contextOf(el) }, newVisibilityCache(), pc.vp, false);
    if (!item) return null;
    insertInOrder(pc.all, item);
    insertInOrder(pc.items, item);
    return item;
  }

  /** Inserts `item` before the first item that follows it in composed document order. */
  function insertInOrder(list, item) {
    let at = list.length;
    for (let i = 0; i < list.length; i++) {
      if (composedPrecedes(item.el, list[i].el)) {
        at = i;
        break;
      }
    }
    for (let i = list.length; i > at; i--) list[i] = list[i - 1];
    list[at] = item;
  }

  /**
   * True when `a` comes before `b` in the order the scan walks: document order, a shadow
   * root's content right after its host, a frame's document right after its iframe.
   */
  function composedPrecedes(a, b) {
    const pa = composedPath(a);
    const pb = composedPath(b);
    let i = 0;
    while (i < pa.length && i < pb.length && pa[i] === pb[i]) i++;
    if (i === pa.length) return true; // a is an ancestor (or host) of b
    if (i === pb.length) return false;
    const x = pa[i];
    const y = pb[i];
    // One of them is the shadow-root side of the shared parent host: shadow content first.
    const xs = getRootNode(x) !== getRootNode(y) && i > 0 && isShadowRoot(getRootNode(x)) &&
        srHost(getRootNode(x)) === pa[i - 1];
    const ys = getRootNode(x) !== getRootNode(y) && i > 0 && isShadowRoot(getRootNode(y)) &&
        srHost(getRootNode(y)) === pb[i - 1];
    if (xs !== ys) return xs;
    for (let n = nextSibling(x); n; n = nextSibling(n)) if (n === y) return true;
    return false;
  }

  /** Ancestors from the top document down to `el`, through shadow hosts and iframes. */
  function composedPath(el) {
    const up = [];
    for (let n = el; n;) {
      push(up, n);
      const p = composedParent(n);
      if (p) n = p;
      else {
        const chain = frameChainOf(n);
        n = chain.length ? chain[chain.length - 1] : null;
      }
    }
    const out = [];
    for (let i = up.length - 1; i >= 0; i--) push(out, up[i]);
    return out;
  }

  // ----- modal_dialog, promo_popup, notification_toast, overlay -----

  function detectPopups(pc) {
    const found = [];
    each(pc.walk.roots, (root) => each(signalBoxes(pc.walk, root).popups, (el) => push(found, el)));
    each(overlaysAtCenter(pc.vp), (el) => push(found, el));
    each(pc.items, (i) => { if (i.vis.fixedRoot) push(found, i.vis.fixedRoot); });
    const seen = new B.Set();
    const candidates = [];
    each(found, (el) => {
      if (setHas(seen, el)) return;
      setAdd(seen, el);
      push(candidates, { el, depth: depthOf(el) });
    });
    const innermostFirst = sortBy(candidates, (c) => -c.depth);
    const detected = [];
    each(innermostFirst, (c) => {
      const p = classifyPopup(pc, c.el);
      if (p) push(detected, p);
    });
    // Topmost (highest z-index) first: the order in which an agent should dismiss them.
    const ordered = sortBy(detected, (p) => -effectiveZ(p.container));
    each(ordered, (p) => push(pc.list, p));
  }

  function depthOf(el) {
    let d = 0;
    for (let n = el; n; n = composedParent(n)) d++;
    return d;
  }

  function effectiveZ(el) {
    let z = 0;
    for (let n = el; n; n = composedParent(n)) {
      const st = styleOf(n);
      const v = st ? +st.zIndex : NaN;
      if (numIsFinite(v) && v > z) z = v;
    }
    return z;
  }

  /**
   * Positioned elements that cover >= 90% of the viewport. Such a box always contains the
   * viewport's center, so one hit test there that lists every layer (a dialog and the backdrop
   * under it) finds them all; from each layer, the innermost covering ancestor counts.
   */
  function overlaysAtCenter(vp) {
    const out = [];
    const x = vp.width / 2;
    const y = vp.height / 2;
    let layers = [];
    try {
      layers = docElementsFromPoint ? docElementsFromPoint(TOP_DOC, x, y)
          : [docElementFromPoint(TOP_DOC, x, y)];
    } catch (e) {
      layers = [];
    }
    each(layers, (layer) => {
      for (let n = deepenHit(layer, x, y); n; n = composedParent(n)) {
        const tag = tagOf(n);
        if (tag === 'body' || tag === 'html') break;
        if (coversViewport(n, vp) && isPositioned(n)) {
          if (!includes(out, n)) push(out, n);
          break;
        }
      }
    });
    return out;
  }

  function coversViewport(el, vp) {
    const r = getRect(el);
    const w = mathMin(r.left + r.width, vp.width) - mathMax(r.left, 0);
    const h = mathMin(r.top + r.height, vp.height) - mathMax(r.top, 0);
    return w > 0 && h > 0 && w * h >= 0.9 * vp.width * vp.height;
  }

  /** Decides what a popup-like element is; claims it and returns the pattern, or null. */
  function classifyPopup(pc, el) {
    if (!isPopupContainerTag(tagOf(el)) || isClaimedOrInside(pc, el)) return null;
    if (!isVisible(el)) return null;
    const signals = attrSignals(el);
    if (!isAriaPopup(el) && (reTest(PAT.popupPart, attr(el, 'class')) || ariaPopupAncestor(el))) return null;
    const own = filter(itemsIn(pc, el), (i) => !isClaimed(pc, i.el));
    const close = firstMatch(own, isCloseControl);
    const text = elementText(el);
    const dialogish = isDialogish(el);
    const positioned = isPositioned(el) || isFixed(el);
    const toastish = ariaRole(el) === 'status' || ariaRole(el) === 'alert' ||
        attr(el, 'aria-live') === 'polite' || attr(el, 'aria-live') === 'assertive' ||
        reTest(PAT.toastAttr, signals);
    const claim = (name, fields, extra) => claimPattern(pc, name, el, fields, extra);
    if (!text && !own.length) return null;
    // A text field's own picker is part of the field, as its list is: not a popup to dismiss
    // (Vaadin's date picker calendar, whose "Cancel" undoes the date typed).
    if (dialogish && fieldPopupOwner(el)) return null;
    // A select's or menu's open list in a box of its own (Base UI's Select.Popup, class "popup"):
    // choices offered, closed by a choice or by Escape, not a dialog.
    if (!dialogish && own.length && holdsOnlyAList(el, own)) return null;
    if (toastish && !dialogish && text && (close || isFixed(el)) && !coversViewport(el, pc.vp)) {
      return claim('notification_toast', { close }, { text: truncate(labelText(el), TEXT_MAX) });
    }
    const promoish = reTest(PAT.promo, text) || reTest(PAT.promoAttr, signals);
    // A live region rules out a promo unless the box is a dialog: SweetAlert2 marks every popup
    // aria-live, and a dialog stays a dialog (as for toasts above).
    if (promoish && close && (dialogish || positioned) && !(toastish && !dialogish)) {
      return claim('promo_popup', { close }, { title: popupTitle(el) });
    }
    if (dialogish || (reTest(PAT.dialogAttr, signals) && positioned)) {
      return claim('modal_dialog', { close }, { title: popupTitle(el) });
    }
    if (positioned && close && coversViewport(el, pc.vp) && effectiveZ(el) > 0) {
      return claim('overlay', { close }, {});
    }
    return null;
  }

  /** Popups are boxes: never the page itself, a control, or inline/graphic content. */
  function isPopupContainerTag(tag) {
    return !{ html: 1, body: 1, button: 1, a: 1, input: 1, select: 1, textarea: 1, label: 1,
      svg: 1, img: 1, span: 1, i: 1, b: 1, strong: 1, em: 1, p: 1, h1: 1, h2: 1, h3: 1, h4: 1,
      h5: 1, h6: 1, li: 1, option: 1, script: 1, style: 1 }[tag];
  }

  function isClaimedOrInside(pc, el) {
    return find(pc.claimed, (c) => composedContains(c, el) ||
        (composedContains(el, c) && !hasOwnControls(pc, el, c))) !== null;
  }

  /** True when `outer` has interactive elements that are not inside `inner`. */
  function hasOwnControls(pc, outer, inner) {
    return find(pc.items, (i) => composedContains(outer, i.el) && !composedContains(inner, i.el) &&
        !isClaimed(pc, i.el)) !== null;
  }

  function popupTitle(el) {
    const byRef = labelledByText(el) || collapse(attr(el, 'aria-label'));
    if (byRef) return truncate(byRef, TEXT_MAX);
    let heading = null;
    try {
      heading = elQsa(el, 'h1, h2, h3, h4, h5, h6, [role=heading], [class*=title i]');
    } catch (e) {
      heading = null;
    }
    const h = heading && heading.length ? heading[0] : null;
    return h ? truncate(collapse(safeInnerText(h)), TEXT_MAX) : '';
  }

  // ----- login_form -----

  function detectLoginForm(pc) {
    const passwords = filter(pc.items, (i) => i.role === 'password' && i.tag === 'input');
    for (let p = 0; p < passwords.length; p++) {
      const pw = passwords[p];
      const container = formOf(pw.el) || formlessScope(pc, pw.el);
      if (!container) continue;
      const inside = itemsIn(pc, container);
      if (filter(inside, (i) => i.role === 'password').length !== 1) continue;
      const before = sliceArr(inside, 0, indexOf(inside, pw));
      const identifier = lastOf(before, (i) => i.type === 'input' &&
          (i.role === 'email' || i.role === 'username' || i.role === 'tel' || i.role === 'generic'));
      if (!identifier) continue;
      const textFields = filter(inside, (i) => (i.type === 'input' || i.type === 'textarea') &&
          i !== identifier && i !== pw && i.role !== 'search');
      if (textFields.length > 1) continue;
      const submit = firstMatch(inside, (i) => i.role === 'submit' && i.type === 'button') ||
          firstMatch(inside, (i) => isClickable(i) && reTest(PAT.loginSubmit, i.name));
      if (submit && reTest(PAT.signupSubmit, submit.name) && !reTest(/sign ?in|log ?in/i, submit.name)) {
        continue;
      }
      const remember = firstMatch(inside, (i) => i.type === 'checkbox' &&
          reTest(PAT.remember, i.name + ' ' + attr(i.el, 'name') + ' ' + elId(i.el)));
      const idField = identifier.role === 'email' ? 'email' : 'username';
      const fields = {};
      fields[idField] = identifier;
      fields.password = pw;
      fields.submit = submit;
      fields.remember = remember;
      addPattern(pc, 'login_form', container, fields);
      return;
    }
  }

  /** For fields without <form>: the closest ancestor holding an identifier field and a button. */
  function formlessScope(pc, el) {
    let n = composedParent(el);
    for (let depth = 0; n && depth < 6; depth++, n = composedParent(n)) {
      const tag = tagOf(n);
      if (tag === 'body' || tag === 'html') return null;
      const inside = itemsIn(pc, n);
      const hasField = find(inside, (i) => i.type === 'input' && i.el !== el && i.role !== 'password');
      const hasButton = find(inside, (i) => i.type === 'button' || (i.type === 'generic' && isClickable(i)));
      if (hasField && hasButton) return n;
    }
    return null;
  }

  function lastOf(list, fn) {
    for (let i = list.length - 1; i >= 0; i--) if (fn(list[i])) return list[i];
    return null;
  }

  // ----- search_form -----

  const DATA_TYPES = { input: 1, textarea: 1, select: 1, checkbox: 1, radio: 1 };

  /**
   * A field that searches one of a form's own choices, not the site: a combobox among several
   * other fields (Headless UI's "People" picker, "Search by name…", in an invite form whose one
   * button sends the invites), outside any search landmark, with no button that says search. Its
   * form's submit is no search submit. (A plain text field among a filter form's fields still
   * searches.)
   */
  function filtersForm(pc, input) {
    const el = input.el;
    const picker = ariaRole(el) === 'combobox' || hasAttribute(el, 'aria-autocomplete') || opensListbox(el) ||
        !!comboboxBoxOf(el) ||
        (hasAttribute(el, 'aria-controls') && hasAttribute(el, 'aria-expanded'));
    // (Without a <form>: the nearest box around it that holds other fields, a React panel whose
    // button sends its state: UI5's ComboBox "Approver", "Search a colleague"; MUI's Autocomplete.)
    const form = picker && (formOf(el) || fieldsPanelOf(pc, input));
    if (!form || inSearchLandmark(el)) return false;
    // (Within its own landmark: one <form> around a whole page, as ASP.NET's, holds the header's
    // search and the footer's newsletter alike.)
    const landmark = landmarkOf(el);
    const inside = filter(itemsIn(pc, form), (i) => landmarkOf(i.el) === landmark);
    const others = filter(inside, (i) => i !== input && DATA_TYPES[i.type] && i.role !== 'search');
    if (others.length < 2) return false;
    // (A button that says it searches: not one that submits, "Submit request".)
    return !find(inside, (i) => (i.type === 'button' || i.role === 'submit') && reTest(PAT.searchButton, i.name) &&
        !reTest(/submit/i, i.name));
  }

  /** The nearest box around a field without a <form> that holds two other fields, within its landmark; or null. */
  function fieldsPanelOf(pc, input) {
    const landmark = landmarkOf(input.el);
    let n = composedParent(input.el);
    for (let depth = 0; n && depth < 6; depth++, n = composedParent(n)) {
      const tag = tagOf(n);
      if (tag === 'body' || tag === 'html' || tag === 'header' || tag === 'footer' || LANDMARK_TAGS[tag] ||
          LANDMARK_ROLES[ariaRole(n)]) return null;
      const others = filter(itemsIn(pc, n), (i) => i !== input && DATA_TYPES[i.type] && i.role !== 'search' &&
          landmarkOf(i.el) === landmark);
      if (others.length >= 2) return n;
    }
    return null;
  }

  function detectSearchForm(pc) {
    const inputs = filter(pc.items, (i) => {
      if (i.role !== 'search' || (i.type !== 'input' && i.type !== 'textarea')) return false;
      // Said in the element (`filters_form`): the search intent takes no such field either.
      if (filtersForm(pc, i)) {
        i.filtersForm = true;
        return false;
      }
      return !isClaimed(pc, i.el) && !inCustomSelectPopup(i.el);
    });
    if (!inputs.length) return;
    const input = firstMatch(inputs, (i) => i.inViewport) || inputs[0];
    const container = formOf(input.el) || searchScope(pc, input.el);
    const inside = container ? itemsIn(pc, container) : [];
    const buttons = filter(inside, (i) => i.type === 'button' || (i.type === 'generic' && isClickable(i)));
    const submit = firstMatch(buttons, (i) => reTest(PAT.searchButton, i.name + ' ' + attrSignals(i.el))) ||
        firstMatch(buttons, (i) => i.role === 'submit' && formOf(i.el) === formOf(input.el) && !!formOf(i.el)) ||
        firstMatch(buttons, (i) => !reTest(/[\p{L}\p{N}]/u, i.name)); // an icon-only (magnifier) button
    addPattern(pc, 'search_form', container || parentElement(input.el) || input.el,
        { input, submit });
  }

  function searchScope(pc, el) {
    let n = composedParent(el);
    for (let depth = 0; n && depth < 3; depth++, n = composedParent(n)) {
      if (ariaRole(n) === 'search' || tagOf(n) === 'search') return n;
      const tag = tagOf(n);
      if (tag === 'body' || tag === 'html') return null;
      if (find(itemsIn(pc, n), (i) => i.type === 'button')) return n;
    }
    return null;
  }

  // ----- pagination -----

  function detectPagination(pc) {
    const seeds = filter(pc.items, (i) => isClickable(i) && (reTest(PAT.next, i.name) ||
        reTest(PAT.prev, i.name) || reTest(PAT.pageNumber, i.name) || relOf(i) !== ''));
    for (let s = 0; s < seeds.length; s++) {
      const container = paginationContainer(pc, seeds[s].el);
      if (!container || isClaimed(pc, container)) continue;
      const inside = filter(itemsIn(pc, container), isClickable);
      const pages = filter(inside, (i) => reTest(PAT.pageNumber, i.name));
      const next = firstMatch(inside, (i) => reTest(PAT.next, i.name) || relOf(i) === 'next');
      const prev = firstMatch(inside, (i) => reTest(PAT.prev, i.name) || relOf(i) === 'prev');
      const named = reTest(PAT.pagination, attrSignals(container));
      if (!((next || prev) && pages.length >= 1) && !(named && (pages.length >= 2 || next))) continue;
      // Numbers in a pattern are element ids; the current page number is text.
      addPattern(pc, 'pagination', container, { prev, next, pages },
          { current_page: currentPage(container) });
      return;
    }
  }

  function relOf(item) { return lc(attr(item.el, 'rel')); }

  /** Closest ancestor (<= 4 up) holding page numbers or prev/next, not a calendar. */
  function paginationContainer(pc, el) {
    let n = composedParent(el);
    for (let depth = 0; n && depth < 4; depth++, n = composedParent(n)) {
      const tag = tagOf(n);
      if (tag === 'body' || tag === 'html' || tag === 'form') return null;
      if (reTest(PAT.calendar, attrSignals(n))) return null;
      const inside = filter(itemsIn(pc, n), isClickable);
      const numbers = filter(inside, (i) => reTest(PAT.pageNumber, i.name));
      if (numbers.length > 20) return null;
      const hasStep = find(inside, (i) => reTest(PAT.next, i.name) || reTest(PAT.prev, i.name) || relOf(i) !== '');
      const named = reTest(PAT.pagination, attrSignals(n));
      if ((numbers.length >= 2 && (hasStep || named)) || (named && hasStep) ||
          (hasStep && numbers.length >= 1 && (tag === 'nav' || tag === 'ul' || tag === 'ol'))) {
        return n;
      }
    }
    return null;
  }

  function currentPage(container) {
    let list = null;
    try {
      list = elQsa(container, '[aria-current=page], [aria-current=true], .active, .current, [class*=current i], [class*=active i]');
    } catch (e) {
      list = null;
    }
    const el = find(list || [], (c) => reTest(/^\d+$/, collapse(safeInnerText(c))));
    return el ? collapse(safeInnerText(el)) : '';
  }

  // ----- messages: what the page tells the user (errors, alerts, confirmations) -----

  // Where messages start (was the selector '[role=alert], [role=status], [aria-live=polite],
  // [aria-live=assertive], .error, .errors, .alert, .notice, .flash, .invalid-feedback,
  // .form-error, .field-error, [class*=error i], [class*=alert i], [class*=success i],
  // [class*=warning i], [class*=message i], [id*=error i]'): see signalBoxes.
  const MESSAGE_CLASS = /error|alert|success|warning|message/i;
  // Class tokens not covered by MESSAGE_CLASS; class selectors ignore case in quirks mode.
  const MESSAGE_TOKENS = /(^|[\t\n\f\r ])(notice|flash|invalid-feedback)([\t\n\f\r ]|$)/;
  const MESSAGE_TOKENS_QUIRKS = /(^|[\t\n\f\r ])(notice|flash|invalid-feedback)([\t\n\f\r ]|$)/i;
  const MESSAGE_ID = /error/i;
  // Any of the popup or message words, to skip most class and id attributes with one test.
  const SIGNAL_CLASS = /modal|dialog|popup|lightbox|toast|snackbar|notification|overlay|newsletter|promo|error|alert|success|warning|message|notice|flash|invalid-feedback/i;
  const SIGNAL_ID = /modal|popup|dialog|newsletter|promo|toast|overlay|error/i;
  const MESSAGE_KIND = [
    ['error', /error|invalid|fail|danger|incorrect|wrong|denied|unable|could ?n.t|cannot|can.t|expired|not (be )?found|not match|required|too (short|long)/i],
    ['warning', /warn|caution|heads up|attention/i],
    ['success', /success|saved|thank|welcome|confirmed|sent|added|updated|complete|done\b/i],
  ];

  /**
   * Visible short texts in alert/status/live regions and error/notice boxes, outermost first, at
   * most 10: [{kind: error|warning|success|info, text, key}]. Cookie and promo boxes are skipped.
   */
  function detectMessages(walk, items, patterns) {
    const skip = map(filter(patterns, (p) => p.name === 'cookie_banner' || p.name === 'promo_popup'),
        (p) => p.container);
    const taken = [];
    const out = [];
    each(walk.roots, (root) => {
      each(signalBoxes(walk, root).messages, (el) => {
        if (out.length >= 10 || !isMessageBox(el, taken, skip, items)) return;
        const text = collapse(labelText(el));
        if (!text || text.length > 300) return;
        push(taken, el);
        const kind = messageKind(el, text);
        push(out, { kind, text: truncate(text, 200), key: kind + ':' + keyText(text) });
      });
    });
    each(fieldErrors(items, taken), (el) => {
      const text = collapse(labelText(el));
      if (!text || out.length >= 10) return;
      push(taken, el);
      push(out, { kind: 'error', text: truncate(text, 200), key: 'error:' + keyText(text) });
    });
    // The browser's own constraint validation: fields it flagged after a submit attempt
    // (:user-invalid) carry their validationMessage ("Please fill out this field.").
    each(items, (item) => {
      if (out.length >= 10 || !isFormControl(item.el)) return;
      let flagged = false;
      try {
        flagged = matches(item.el, ":user-invalid");
      } catch (e) {
        // A browser without :user-invalid: fields that fired `invalid` and still are.
        flagged = !!wmGet(invalidSeen, item.el) && !!item.el.validity && !item.el.validity.valid;
      }
      const message = flagged ? collapse(str(item.el.validationMessage || '')) : '';
      if (!message) return;
      const text = (item.text ? item.text + ': ' : '') + message;
      push(out, { kind: 'error', text: truncate(text, 200), key: 'invalid:' + keyText(item.text || '') });
    });
    return out;
  }

  /** Visible error texts of fields marked aria-invalid (aria-errormessage, aria-describedby). */
  function fieldErrors(items, taken) {
    const out = [];
    each(items, (item) => {
      if (attr(item.el, 'aria-invalid') !== 'true') return;
      const ids = strTrim(attr(item.el, 'aria-errormessage') || attr(item.el, 'aria-describedby'));
      each(ids ? strSplit(ids, ' ') : [], (id) => {
        const ref = id ? byIdInRoot(item.el, id) : null;
        if (ref && !includes(out, ref) && !find(taken, (t) => composedContains(t, ref)) && isVisible(ref)) {
          push(out, ref);
        }
      });
    });
    return out;
  }

  function isMessageBox(el, taken, skip, items) {
    const tag = tagOf(el);
    if (isFormControl(el) || tag === 'a' || tag === 'label' || tag === 'form' || tag === 'html' ||
        tag === 'body' || tag === 'script' || tag === 'style' || tag === 'option') {
      return false;
    }
    if (isDialogish(el) || find(taken, (t) => composedContains(t, el)) ||
        find(skip, (c) => composedContains(c, el))) {
      return false; // dialogs, cookie and promo boxes are patterns, not messages
    }
    // Nor a control's own text, nor a dialog's title (Ionic's alert: every part has a class
    // with "alert" in it, its choices' labels and its heading too).
    if (insideInteractive(el) || isDialogTitle(el)) return false;
    // A box with fields or several controls is a form or a section (a field's wrapper), not a
    // message; field errors come from aria-invalid fields instead.
    if (firstOf(el, 'input:not([type=hidden]), select, textarea')) return false;
    if (filter(items, (i) => composedContains(el, i.el)).length > 2) return false;
    return isVisible(el);
  }

  /** True when `el` holds (or is inside) what names the dialog around it (aria-labelledby). */
  function isDialogTitle(el) {
    for (let n = composedParent(el), depth = 0; n && depth < 8; n = composedParent(n), depth++) {
      if (!isDialogish(n)) continue;
      const ids = strTrim(attr(n, 'aria-labelledby'));
      return !!ids && find(strSplit(ids, /\s+/), (id) => {
        const ref = byIdInRoot(n, id);
        return !!ref && (composedContains(el, ref) || composedContains(ref, el));
      }) !== null;
    }
    return false;
  }

  function messageKind(el, text) {
    const signals = attr(el, 'class') + ' ' + elId(el);
    for (let i = 0; i < MESSAGE_KIND.length; i++) {
      if (reTest(MESSAGE_KIND[i][1], signals)) return MESSAGE_KIND[i][0];
    }
    for (let i = 0; i < MESSAGE_KIND.length; i++) {
      if (reTest(MESSAGE_KIND[i][1], text)) return MESSAGE_KIND[i][0];
    }
    return 'info';
  }

  // ===============================================================================================
  // 13. Actionability and input events: scroll into view, visible, enabled, receives the pointer.
  // ===============================================================================================
  const SETTLE_FALLBACK_MS = 50; // when requestAnimationFrame does not fire (hidden tabs)
  const FRAME_STALL_MS = 500; // a visible page's next frames, at the latest (wait_quiet's `frames`)
  /** Whether the top document is shown, so its animation frames come. */
  function drawing() {
    try {
      return TOP_DOC.visibilityState === 'visible';
    } catch (e) {
      return false;
    }
  }
  const UPGRADE_TIMEOUT_MS = 3000; // web components still loading: at most this long before acting
  const UPGRADE_PATIENCE_MS = 300; // ... and this long without a definition or a loaded resource
  const PATIENCE_FRAMES = 10; // ... over at least this many checks (a frame each)
  const OWN_DEFINITION_MS = 1000; // the element acted on, undefined: at least this long
  const SMOOTH_SCROLL_LIMIT_MS = 2000;

  function fullyInside(box, vp) {
    return box.x >= 0 && box.y >= 0 && box.x + box.width <= vp.width && box.y + box.height <= vp.height;
  }

  /** Visibility for acting: a transparent select or file input over what it labels counts. */
  function actionVisibility(el, cache) {
    const vis = visibilityOf(el, cache);
    return vis.visible ? vis : transparentOverlayVisibility(el, cache) || vis;
  }

  /** The element that receives pointer actions: a visible <label> for visually hidden checkboxes. */
  function pointerTarget(item) { return item.proxy && isConnected(item.proxy) ? item.proxy : item.el; }

  /** Scrolls the element to the center of its viewport(s) when it is not fully inside them. */
  function scrollIntoViewIfNeeded(item) {
    const target = pointerTarget(item);
    const vis = actionVisibility(target, newVisibilityCache());
    const r = vis.rect;
    const local = { x: r.left, y: r.top, width: r.width, height: r.height };
    const shown = !vis.view || isSameBox(intersect(vis.view, boxOf(r)), boxOf(r));
    const inside = shown && fullyInside(local, viewportSize(ownerDocument(target))) &&
        fullyInside(topRect(target, item.ctx.chain), viewportSize(TOP_DOC));
    if (inside) return false;
    try {
      scrollIntoView(target, { block: 'center', inline: 'center', behavior: 'instant' });
    } catch (e) {
      scrollIntoView(target, true);
    }
    return true;
  }

  /** Click point: center (or center + offset) of the first non-empty box, in both coordinate systems. */
  function actionPoint(item, offset) {
    const target = pointerTarget(item);
    let r = getRect(target);
    const boxes = getClientRects(target);
    if (boxes.length > 1) {
      const first = find(boxes, (b) => b.width > 0 && b.height > 0);
      if (first) r = first;
    }
    if (r.width === 0 || r.height === 0) r = childrenUnion(target) || r;
    const ox = offset && numIsFinite(+offset.x) ? +offset.x : 0;
    const oy = offset && numIsFinite(+offset.y) ? +offset.y : 0;
    const lx = r.left + r.width / 2 + ox;
    const ly = r.top + r.height / 2 + oy;
    const off = frameOffset(item.ctx.chain);
    return { x: lx + off.x, y: ly + off.y, lx, ly,
      rect: { x: r.left + off.x, y: r.top + off.y, width: r.width, height: r.height } };
  }

  // Where else to press a target covered at its centre: beside the centre first, then nearer its edges.
  const UNCOVERED_TRIES = [[0.75, 0.5], [0.25, 0.5], [0.5, 0.25], [0.5, 0.75], [0.9, 0.5], [0.1, 0.5],
    [0.75, 0.25], [0.25, 0.25], [0.75, 0.75], [0.25, 0.75]];

  /** A point of `pt.rect` in the viewport where a press reaches `item`: {pt, hit}, or null. */
  function uncoveredPoint(item, pt, vp) {
    const r = pt.rect;
    const dx = pt.x - pt.lx;
    const dy = pt.y - pt.ly;
    for (let i = 0; i < UNCOVERED_TRIES.length; i++) {
      const x = r.x + r.width * UNCOVERED_TRIES[i][0];
      const y = r.y + r.height * UNCOVERED_TRIES[i][1];
      if (x < 0 || y < 0 || x >= vp.width || y >= vp.height) continue;
      const hit = hitAt(item.ctx.chain, x, y);
      const at = { x, y, lx: x - dx, ly: y - dy, rect: r };
      if (receivesPointer(item, hit, at)) return { pt: at, hit };
    }
    return null;
  }

  /** Deepest element at (x, y) of a document or shadow root, through open shadow roots. */
  function deepElementFromPoint(root, x, y) {
    return deepenHit(nodeType(root) === DOCUMENT_NODE ? docElementFromPoint(root, x, y)
        : srElementFromPoint(root, x, y), x, y);
  }

  /** The element at (x, y) inside the open shadow roots of `hit` (a host), else `hit`. */
  function deepenHit(hit, x, y) {
    for (let guard = 0; hit && guard < 32; guard++) {
      const sr = shadowRoot(hit);
      if (!sr) break;
      const inner = srElementFromPoint(sr, x, y);
      if (!inner || inner === hit) break;
      hit = inner;
    }
    return hit;
  }

  /** Hit test at top-level (x, y), descending through the item's iframe chain. */
  function hitAt(chain, x, y) {
    let doc = TOP_DOC;
    let lx = x;
    let ly = y;
    let hit = deepElementFromPoint(doc, lx, ly);
    for (let i = 0; i < chain.length; i++) {
      if (hit !== chain[i]) return hit;
      const o = frameContentOrigin(chain[i]);
      lx -= o.x;
      ly -= o.y;
      doc = safeContentDocument(chain[i]);
      if (!doc) return hit;
      hit = deepElementFromPoint(doc, lx, ly);
    }
    return hit;
  }

  /** Parent in the flat tree: the assigned <slot> for slotted nodes, else the composed parent. */
  function flatParent(n) {
    let slot = null;
    try {
      slot = nodeType(n) === 3 ? B.textAssignedSlot(n) : B.assignedSlot(n);
    } catch (e) {
      slot = null;
    }
    return slot || composedParent(n);
  }

  function flatContains(outer, inner) {
    for (let n = inner; n; n = flatParent(n)) if (n === outer) return true;
    return false;
  }

  /**
   * True when a press at `pt`, whose topmost element is `hit`, reaches the item: `hit` is inside it
   * in the flat tree (slotted content counts), is one of its labels, or is the shadow host whose
   * slotted text sits in the item at that point.
   */
  function receivesPointer(item, hit, pt) {
    if (!hit) return false;
    const target = pointerTarget(item);
    if (flatContains(target, hit) || flatContains(item.el, hit)) return true;
    if (find(labelsOf(item.el), (l) => flatContains(l, hit)) !== null) return true;
    if (shadowRoot(hit) && composedContains(hit, target) && pt) {
      const r = getRect(target);
      return pt.lx >= r.left && pt.lx <= r.left + r.width && pt.ly >= r.top && pt.ly <= r.top + r.height;
    }
    return false;
  }

  /** Where pointer events go: the topmost element inside the item, else the item itself. */
  function eventTarget(item, hit) {
    const target = pointerTarget(item);
    return hit && (flatContains(target, hit) || flatContains(item.el, hit)) &&
        !composedContains(hit, target) ? hit : target;
  }

  /**
   * Runs the actionability checks of `check` ("click", "type", "hover") and returns the point.
   * Throws ELEMENT_NOT_VISIBLE, ELEMENT_DISABLED or ELEMENT_NOT_INTERACTABLE with a hint.
   */
  function ensureActionable(item, opts) {
    if (opts.scroll) scrollIntoViewIfNeeded(item);
    const target = pointerTarget(item);
    const vis = actionVisibility(target, newVisibilityCache());
    if (!vis.visible) {
      throw fail('ELEMENT_NOT_VISIBLE', 'element ' + itemLabel(item) + ' is not visible (' +
          vis.reason + '); wait for it with wait_for visible, or scan again');
    }
    if (opts.check !== 'hover' && isDisabled(item.el)) {
      throw fail('ELEMENT_DISABLED', 'element ' + itemLabel(item) +
          ' is disabled; wait for it to be enabled (wait_for enabled) or fill the fields it depends on');
    }
    if (opts.check === 'type' && isReadonly(item.el)) {
      throw fail('ELEMENT_NOT_INTERACTABLE', 'element ' + itemLabel(item) + ' is read-only; it cannot be typed into');
    }
    let pt = actionPoint(item, opts.offset);
    const vp = viewportSize(TOP_DOC);
    if (pt.x < 0 || pt.y < 0 || pt.x >= vp.width || pt.y >= vp.height) {
      throw fail('ELEMENT_NOT_VISIBLE', 'element ' + itemLabel(item) + ' is outside the viewport at (' +
          round(pt.x) + ', ' + round(pt.y) + ')' + (opts.scroll ? '' : '; use scroll_into_view'));
    }
    let hit = hitAt(item.ctx.chain, pt.x, pt.y);
    // Covered in part (a carousel's arrow over the link at its slide's edge): a person presses
    // the part they see. Not past an open list, which a person closes first.
    if (!opts.force && !opts.offset && opts.check !== 'type' && hit && !receivesPointer(item, hit, pt) &&
        !composedContains(hit, item.el) && !openListOver(hit, item) && !inInert(item.el)) {
      const seen = uncoveredPoint(item, pt, vp);
      if (seen) {
        pt = seen.pt;
        hit = seen.hit;
      }
    }
    // A text field's press only focuses it, wherever it lands, but not on an open list over it:
    // there it picks an option (PrimeReact's Dropdown panel, still fading out over the next field).
    const typingOnList = !opts.force && opts.check === 'type' && hit && !composedContains(item.el, hit) &&
        !composedContains(hit, item.el) ? openListOver(hit, item) : null;
    if (!opts.force && (typingOnList || (opts.check !== 'type' && !receivesPointer(item, hit, pt)))) {
      // (A target made inert while a list is open, by the list's widget: Headless UI's
      // Combobox makes the rest of the page inert; a person's click closes the list first.)
      // (Or a box over the whole page that only catches the click that closes a list: Base UI's
      // Select lays a transparent backdrop under its open list.)
      const list = typingOnList || (hit && !composedContains(hit, item.el)
          ? openListOver(hit, item) || (catchesClicksOnly(hit, vp) ? openListBeside(item) : null)
          : inInert(item.el) ? openListBeside(item) : null) || openPickerOfFocus(item);
      const away = list ? clickAwayPoint(list, item.ctx.chain) : null;
      const who = list ? 'is covered by an open list (' + describe(composedContains(hit, item.el) ? list : hit) +
          (away ? ', click away at (' + round(away.x) + ', ' + round(away.y) + ')' : '') +
          (escapeWouldClear() ? ', no Escape' : '') + ')'
          : hit && composedContains(hit, item.el) ? 'does not receive pointer events; ' + describe(hit) +
          ' would get the click' : 'is covered by ' + describe(hit);
      throw fail('ELEMENT_NOT_INTERACTABLE', 'element ' + itemLabel(item) + ' ' + who + ' at (' +
          round(pt.x) + ', ' + round(pt.y) + '); dismiss the covering element (dismiss_popups, ' +
          'accept_cookies) or retry with force');
    }
    return { pt, hit };
  }

  /**
   * The open list of choices that `hit`, covering `item`, belongs to (a select's or an
   * autocomplete's panel left open, a dropdown menu), or null: a listbox or menu, a box of an
   * option container's class, or a floating box holding options, up to 8 boxes up. A person
   * closes it with Escape, so the engine may; not while a modal dialog is open, whose own Escape
   * handler could close the dialog with it (a panel portaled to the body leaves no trace of the
   * dialog it opened from).
   */
  function openListOver(hit, item) {
    let list = null;
    for (let n = hit, depth = 0; n && depth < 8 && !list; n = composedParent(n), depth++) {
      if (tagOf(n) === 'body' || tagOf(n) === 'html') break;
      const role = ariaRole(n);
      if (role === 'listbox' || role === 'menu' || reTest(OPTION_CONTAINER, attr(n, 'class')) ||
          (isPositioned(n) && queryAll(n, '[role=option], [role=menuitem], [role=listbox]').length > 0) ||
          isSelectMenu(n)) {
        list = n;
      }
    }
    if (!list || composedContains(list, item.el)) return null;
    const cache = newVisibilityCache();
    const isModal = (d) => {
      if (tagOf(d) !== 'dialog') return true;
      try {
        return matches(d, ':modal');
      } catch (e) {
        return true;  // no :modal here: an open <dialog> may be one
      }
    };
    const modal = find(queryAll(ownerDocument(list) || TOP_DOC, '[aria-modal=true], dialog[open]'), (d) =>
      isModal(d) && actionVisibility(d, cache).visible);
    return modal ? null : list;
  }

  /**
   * Whether `box` holds the title of the dialog it is in (the element the dialog's
   * aria-labelledby names): the dialog's panel, whose click listener only keeps clicks inside
   * from closing the dialog (Headless UI's DialogPanel), not a control.
   */
  function holdsDialogTitle(box) {
    let dialog = null;
    for (let n = composedParent(box); n && !dialog; n = composedParent(n)) {
      const role = ariaRole(n);
      if (role === 'dialog' || role === 'alertdialog' || tagOf(n) === 'dialog') dialog = n;
    }
    const ids = dialog ? strSplit(collapse(attr(dialog, 'aria-labelledby')), ' ') : [];
    return find(ids, (id) => {
      const title = id ? byIdInRoot(dialog, id) : null;
      return !!title && nodeContains(box, title);
    }) !== null;
  }

  /**
   * The popup the focused field has open (aria-expanded, aria-haspopup: a date picker's calendar
   * it opened as its text was typed), when `item` is outside it: a person leaves the field by a
   * click beside the popup, which closes it keeping the text (Vaadin's date picker: its overlay
   * takes every click on the page while open, the first one outside closes it). Its popup is the
   * one aria-controls names, else a dialog, grid, listbox or tree in the component around it
   * (its light or shadow tree, up to 3 boxes up). null when there is none.
   */
  function openPickerOfFocus(item) {
    const a = deepActiveElement(TOP_DOC);
    if (!a || a === item.el || composedContains(item.el, a) || !hasItsPopupOpen(a)) return null;
    const cache = newVisibilityCache();
    const shown = (n) => !!n && !composedContains(n, item.el) && actionVisibility(n, cache).visible;
    const controlled = strSplit(collapse(attr(a, 'aria-controls')), ' ')[0];
    const named = controlled ? byIdInRoot(a, controlled) : null;
    if (named) return shown(named) ? named : null;
    const POPUPS = '[role=dialog], [role=grid], [role=listbox], [role=tree]';
    for (let n = composedParent(a), depth = 0; n && depth < 3; n = composedParent(n), depth++) {
      const sr = shadowRoot(n);
      const found = find(queryAll(n, POPUPS), shown) || (sr ? find(queryAll(sr, POPUPS), shown) : null);
      if (found) return found;
    }
    return null;
  }

  /** Whether `el` is inside an inert subtree (it takes no clicks and no focus). */
  function inInert(el) {
    for (let n = el; n; n = composedParent(n)) {
      if (nodeType(n) === ELEMENT_NODE && hasAttribute(n, 'inert')) return true;
    }
    return false;
  }

  /** Whether `el` is an empty box over the whole viewport: there only to catch a click. */
  function catchesClicksOnly(el, vp) {
    return isPositioned(el) && coversViewport(el, vp) && !children(el).length && !collapse(str(textContent(el)));
  }

  /** A list open elsewhere on `item`'s page: a visible listbox or menu outside any inert part. */
  function openListBeside(item) {
    const doc = ownerDocument(item.el) || TOP_DOC;
    const cache = newVisibilityCache();
    return find(queryAll(doc, '[role=listbox], [role=menu]'), (l) => !composedContains(l, item.el) &&
        !inInert(l) && actionVisibility(l, cache).visible) || null;
  }

  /**
   * Where a person clicks to close an open list that Escape does not close (Fomantic UI's menu
   * after a choice: the focus is back on the body): beside the list, on nothing that takes a
   * click (no control, link, label or listener, no pointer cursor, not the list). Null if none.
   */
  function clickAwayPoint(list, chain) {
    const r = getRect(list);
    const vp = viewportSize(TOP_DOC);
    const spots = [[r.left - 16, r.top + 8], [r.left + r.width + 16, r.top + 8], [r.left - 16, r.top + r.height / 2],
      [r.left + r.width + 16, r.top + r.height / 2], [8, r.top + 8], [vp.width - 8, r.top + 8]];
    for (let i = 0; i < spots.length; i++) {
      const x = spots[i][0];
      const y = spots[i][1];
      if (x < 0 || y < 0 || x >= vp.width || y >= vp.height) continue;
      const hit = hitAt(chain, x, y);
      if (!hit || composedContains(list, hit)) continue;
      const tag = tagOf(hit);
      const st = styleOf(hit);
      const inert = tag === 'body' || tag === 'html' ||
          (!isInteractiveCandidate(hit, tag) && !insideInteractive(hit) && !wsHas(listened, hit) &&
           (!st || st.cursor !== 'pointer'));
      if (inert) return { x, y };
    }
    return null;
  }

  /**
   * Whether Escape would undo what a person typed: the focus is in a text field that holds text
   * (Chromium empties a search field on Escape; autocompletes may reset theirs).
   */
  function escapeWouldClear() {
    const a = deepActiveElement(TOP_DOC);
    const tag = a ? tagOf(a) : '';
    if (tag === 'textarea') return !!textareaValue(a);
    return tag === 'input' && !NON_TEXT_INPUTS[lc(attr(a, 'type'))] && !!inputValue(a);
  }

  function itemSelector(item) { return fullSelector(item.el, item.ctx.chain); }

  // ----- events -----

  function eventCtor(el, name) {
    const win = windowOf(el);
    return (win && win[name]) || G[name];
  }

  /** Dispatches a new `ctorName` event on `target`; returns false when it was canceled. */
  function fire(target, ctorName, type, init) {
    const Ctor = eventCtor(target, ctorName) || eventCtor(target, 'Event');
    const ev = new Ctor(type, init);
    if (init.legacyKeyCode !== undefined) {
      each(['keyCode', 'which', 'charCode'], (k) => {
        const v = k === 'charCode' ? init.legacyCharCode || 0 : init.legacyKeyCode;
        try {
          defineProperty(ev, k, { get: () => v });
        } catch (e) {
          // read-only in this engine: keep the default
        }
      });
    }
    dispatchEvent(target, ev);
    return !eventDefaultPrevented(ev);
  }

  const MODIFIER_KEYS = { control: 'ctrlKey', ctrl: 'ctrlKey', shift: 'shiftKey', alt: 'altKey',
    meta: 'metaKey', cmd: 'metaKey', command: 'metaKey' };

  function modifierFlags(list) {
    const flags = { ctrlKey: false, shiftKey: false, altKey: false, metaKey: false };
    if (!isArray(list)) return flags;
    each(list, (m) => {
      const k = MODIFIER_KEYS[lc(m)];
      if (!k) {
        throw fail('SCRIPT_ERROR', 'unknown modifier "' + m + '"; use Control, Shift, Alt or Meta');
      }
      flags[k] = true;
    });
    return flags;
  }

  function mouseInit(target, pt, button, buttons, detail, flags) {
    return { bubbles: true, cancelable: true, composed: true, view: windowOf(target), detail,
      screenX: pt.x, screenY: pt.y, clientX: pt.lx, clientY: pt.ly, button, buttons,
      ctrlKey: flags.ctrlKey, shiftKey: flags.shiftKey, altKey: flags.altKey, metaKey: flags.metaKey,
      pointerId: 1, pointerType: 'mouse', isPrimary: true, width: 1, height: 1,
      pressure: buttons ? 0.5 : 0 };
  }

  function firePointer(target, type, init) {
    if (eventCtor(target, 'PointerEvent')) fire(target, 'PointerEvent', type, init);
  }

  /**
   * Moves the (virtual) pointer onto `target`: out/leave events for what it leaves, over/enter for
   * what it enters (enter/leave go to every ancestor crossed, as browsers do), then move events.
   */
  function dispatchHover(target, pt, flags) {
    const init = mouseInit(target, pt, 0, 0, 0, flags);
    const quiet = mouseInit(target, pt, 0, 0, 0, flags);
    quiet.bubbles = false;
    quiet.cancelable = false;
    const prev = state.hovered && isConnected(state.hovered) ? state.hovered : null;
    if (prev !== target) {
      if (prev) {
        firePointer(prev, 'pointerout', init);
        fire(prev, 'MouseEvent', 'mouseout', init);
        each(exclusiveAncestors(prev, target), (n) => {
          firePointer(n, 'pointerleave', quiet);
          fire(n, 'MouseEvent', 'mouseleave', quiet);
        });
      }
      firePointer(target, 'pointerover', init);
      fire(target, 'MouseEvent', 'mouseover', init);
      const entered = exclusiveAncestors(target, prev);
      for (let i = entered.length - 1; i >= 0; i--) {
        firePointer(entered[i], 'pointerenter', quiet);
        fire(entered[i], 'MouseEvent', 'mouseenter', quiet);
      }
      state.hovered = target;
    }
    firePointer(target, 'pointermove', init);
    fire(target, 'MouseEvent', 'mousemove', init);
  }

  /** `el` and its flat-tree ancestors that do not contain `other` (innermost first). */
  function exclusiveAncestors(el, other) {
    const out = [];
    for (let n = el; n; n = flatParent(n)) {
      if (other && flatContains(n, other)) break;
      push(out, n);
    }
    return out;
  }

  const BUTTONS = { left: [0, 1], middle: [1, 4], right: [2, 2] };

  /** The realistic event sequence of one or two clicks with `button`. */
  function dispatchClick(target, pt, button, count, flags) {
    const codes = BUTTONS[button];
    dispatchHover(target, pt, flags);
    for (let i = 1; i <= count; i++) {
      firePointer(target, 'pointerdown', mouseInit(target, pt, codes[0], codes[1], i, flags));
      const down = fire(target, 'MouseEvent', 'mousedown', mouseInit(target, pt, codes[0], codes[1], i, flags));
      if (down && i === 1) focusOnPress(target);
      firePointer(target, 'pointerup', mouseInit(target, pt, codes[0], 0, i, flags));
      fire(target, 'MouseEvent', 'mouseup', mouseInit(target, pt, codes[0], 0, i, flags));
      if (button === 'left') fire(target, 'MouseEvent', 'click', mouseInit(target, pt, 0, 0, i, flags));
      else if (button === 'middle') fire(target, 'MouseEvent', 'auxclick', mouseInit(target, pt, 1, 0, i, flags));
      else fire(target, 'MouseEvent', 'contextmenu', mouseInit(target, pt, 2, 0, i, flags));
    }
    if (count === 2 && button === 'left') {
      fire(target, 'MouseEvent', 'dblclick', mouseInit(target, pt, 0, 0, 2, flags));
    }
  }

  function isFocusable(el) {
    const tag = tagOf(el);
    if (isDisabled(el) && (tag === 'button' || tag === 'input' || tag === 'select' || tag === 'textarea')) {
      return false;
    }
    if (hasAttribute(el, 'tabindex')) return true;
    if (tag === 'a' || tag === 'area') return hasAttribute(el, 'href');
    if (tag === 'button' || tag === 'input' || tag === 'select' || tag === 'textarea' ||
        tag === 'summary' || tag === 'iframe') {
      return true;
    }
    return isEditable(el) && isEditingHost(el);
  }

  /** What a real press does: focus the closest focusable ancestor, or blur the active element. */
  function focusOnPress(target) {
    for (let n = target; n; n = composedParent(n)) {
      if (isFocusable(n)) {
        if (deepActiveElement(ownerDocument(n)) !== n) focus(n, { preventScroll: true });
        return;
      }
    }
    const active = deepActiveElement(ownerDocument(target));
    if (active && tagOf(active) !== 'body' && active.blur) blur(active);
  }

  // ----- change watching: DOM mutations and navigation during an action -----

  /** Starts counting mutations and watching for unloads; call stop() for the result. */
  function startWatch(item) {
    const counts = { added: 0, removed: 0, modified: 0 };
    const modified = new B.Set();
    const touch = (el) => {
      if (el && !setHas(modified, el)) {
        setAdd(modified, el);
        counts.modified++;
      }
    };
    // Elements added/removed count as such; text and attribute changes modify their element.
    const tally = (records) => {
      each(records, (r) => {
        if (r.type !== 'childList') {
          touch(r.type === 'characterData' ? parentNode(r.target) : r.target);
          return;
        }
        let textChanged = false;
        each(r.addedNodes, (n) => { if (nodeType(n) === ELEMENT_NODE) counts.added++; else textChanged = true; });
        each(r.removedNodes, (n) => { if (nodeType(n) === ELEMENT_NODE) counts.removed++; else textChanged = true; });
        if (textChanged) touch(r.target);
      });
    };
    const mo = new B.MutationObserver(tally);
    observeRoots(mo);
    const wins = [TOP_WINDOW];
    if (item) each(item.ctx.chain, (f) => { const d = safeContentDocument(f); if (d && docView(d)) push(wins, docView(d)); });
    const hrefs = map(wins, (w) => safeHref(w));
    let unloading = false;
    const onUnload = () => { unloading = true; };
    each(wins, (w) => {
      addListener(w, 'beforeunload', onUnload, true);
      addListener(w, 'pagehide', onUnload, true);
    });
    return {
      unloading: () => unloading,
      stop() {
        tally(moTakeRecords(mo));
        moDisconnect(mo);
        each(wins, (w) => {
          removeListener(w, 'beforeunload', onUnload, true);
          removeListener(w, 'pagehide', onUnload, true);
        });
        let navigated = unloading;
        each(wins, (w, i) => { if (safeHref(w) !== hrefs[i]) navigated = true; });
        return { navigated, changes: counts };
      },
    };
  }

  function safeHref(win) {
    try {
      return str(win.location.href);
    } catch (e) {
      return '';
    }
  }

  /** Resolves after microtasks and one animation frame (or a short fallback in hidden tabs). */
  function settle() {
    return new B.Promise((resolve) => {
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        resolve();
      };
      try {
        B.requestAnimationFrame(() => B.setTimeout(finish, 0));
      } catch (e) {
        // no rAF in this context: the fallback timer finishes
      }
      B.setTimeout(finish, SETTLE_FALLBACK_MS);
    });
  }

  function sleep(ms) { return new B.Promise((resolve) => { B.setTimeout(resolve, ms); }); }

  // ===============================================================================================
  // 14. Commands (spec §3).
  // ===============================================================================================

  function requireId(cmd, name) {
    if (!hasOwn(cmd, 'id') || cmd.id === null || cmd.id === undefined) {
      throw fail('ELEMENT_NOT_FOUND', name + ' needs "id", an element id from the last scan');
    }
    return lookup(cmd.id);
  }

  function actionOptions(cmd, check) {
    return { check, force: param(cmd, 'force', false) === true,
      scroll: param(cmd, 'scroll_into_view', true) !== false, offset: param(cmd, 'offset', null) };
  }

  // Tags given up on in this document: never defined, waited for no more (untilUpgraded).
  const neverDefined = new B.Set();

  function undefinedElements(el) {
    const out = [];
    each(watchedRoots(), (root) => {
      try {
        each(queryAll(root, ':not(:defined)'), (n) => {
          if (!setHas(neverDefined, tagOf(n))) push(out, n);
        });
      } catch (e) {
        // a root that went away
      }
    });
    const own = ownUndefined(el);
    if (own && !includes(out, own)) push(out, own);
    return out;
  }

  /** The undefined custom element `el` is or lies in (through shadow roots), not given up on. */
  function ownUndefined(el) {
    for (let n = el, depth = 0; n && depth < 8; n = composedParent(n), depth++) {
      if (strIndexOf(tagOf(n), '-') > 0 && !matches(n, ':defined')) return setHas(neverDefined, tagOf(n)) ? null : n;
    }
    return null;
  }

  function uniqueTags(list) {
    const out = [];
    each(list, (n) => { if (!includes(out, tagOf(n))) push(out, tagOf(n)); });
    return out;
  }

  function resourcesLoaded() {
    try {
      return G.performance.getEntriesByType('resource').length;
    } catch (e) {
      return 0;
    }
  }

  /**
   * Web components not defined yet (their modules still loading, as Shoelace's autoloader does
   * after load) show their text but have no behaviour, and a button's handler may call a dialog
   * that is not upgraded yet: a person waits for the page to finish. Waits while undefined custom
   * elements remain (in the document, the scanned shadow roots, or around `el`) and the page makes
   * progress: a definition, or a resource finishing loading. Ends after `patience` ms and at least
   * `frames` checks without progress (a page busy compiling modules checks rarely), or
   * `timeout` in all; the target itself (`el` or its host) undefined is waited for at least
   * OWN_DEFINITION_MS. Then, if `final`, the tags still undefined count as never defined (a custom
   * tag used for styling) and cost no wait again in this document.
   */
  function untilUpgraded(el, timeout, patience, frames, final) {
    const t0 = now();
    let progressAt = t0;
    let idleChecks = 0;
    let progress = false;
    let pending = undefinedElements(el);
    let loaded = resourcesLoaded();
    const done = (settled) => ({ settled, progress, pending: uniqueTags(pending), waited_ms: round(now() - t0) });
    if (!pending.length) return B.Promise.resolve(done(true));
    const check = () => {
      const left = undefinedElements(el);
      const nowLoaded = resourcesLoaded();
      if (left.length < pending.length || nowLoaded !== loaded) {
        progressAt = now();
        idleChecks = 0;
        progress = true;
      } else {
        idleChecks++;
      }
      pending = left;
      loaded = nowLoaded;
      if (!pending.length) return done(true);
      const lull = now() - progressAt >= patience && idleChecks >= frames &&
          (now() - t0 >= OWN_DEFINITION_MS || !ownUndefined(el));
      if (lull || now() - t0 >= timeout) {
        if (final) each(pending, (n) => setAdd(neverDefined, tagOf(n)));
        return done(false);
      }
      return settle().then(check);
    };
    return settle().then(check);
  }

  const STILL_TIMEOUT_MS = 1000;  // the longest wait for a moving target's animations

  /** point: actionability checks only; the backend clicks natively at (x, y). */
  async function cmdPoint(cmd) {
    const item = requireId(cmd, 'point');
    const check = str(param(cmd, 'check', 'click'));
    if (check !== 'click' && check !== 'type' && check !== 'hover' && check !== 'grab' && check !== 'drop') {
      throw fail('SCRIPT_ERROR', 'point check must be "click", "type", "hover", "grab" or "drop", got "' + check + '"');
    }
    const stable = param(cmd, 'stable', false) === true;
    if (param(cmd, 'force', false) !== true) await untilUpgraded(item.el, UPGRADE_TIMEOUT_MS, UPGRADE_PATIENCE_MS, PATIENCE_FRAMES, true);
    // Playwright's "stable": first, the end of the finite animations that move or show the target
    // (bounded: a long one is left to the frames below). Before the hit test, since a menu that
    // fades in may take no pointer events until its animation ends (Vuetify's VDialogTransition).
    if (stable && movingAnimations(item.el).length) {
      await untilAnimationsEnd(() => movingAnimations(item.el), STILL_TIMEOUT_MS);
    }
    let { pt, hit } = ensureActionable(item, actionOptions(cmd, check === 'grab' || check === 'drop' ? 'hover' : check));
    if (check === 'grab') pt = grabPoint(item, pt);
    if (check === 'drop') pt = dropPoint(item, pt);
    if (stable) {
      // Then the same box in two consecutive animation frames, else a moving target (a sliding
      // menu, a growing panel) would take the click somewhere else.
      const again = actionOptions(cmd, check);
      again.scroll = false;
      for (let i = 0; ; i++) {
        await settle();
        const next = ensureActionable(item, again).pt;
        const a = pt.rect;
        const b = next.rect;
        const same = mathAbs(a.x - b.x) < 0.5 && mathAbs(a.y - b.y) < 0.5 &&
            mathAbs(a.width - b.width) < 0.5 && mathAbs(a.height - b.height) < 0.5;
        pt = next;
        if (same) break;
        if (i >= 9) {
          throw fail('ELEMENT_NOT_INTERACTABLE', 'element ' + itemLabel(item) + ' is still moving ' +
              '(animating) after 10 frames; wait for it to settle');
        }
      }
    }
    // `reads`: the text the caller chose it by, checked last, right before the press: a list that
    // reuses its rows (keyed by position, re-sorted as options are chosen) may draw another option
    // into this element since the scan, or while it was waited for.
    const reads = str(param(cmd, 'reads', ''));
    const wanted = lc(collapse(strReplace(reads, /…$/, '')));
    if (wanted) {
      const now = collapse(accessibleName(item.el, item.type) || safeInnerText(item.el));
      if (strIndexOf(lc(now), wanted) < 0) {
        throw fail('ELEMENT_STALE', 'element [' + item.id + '] now reads "' + truncate(now, 60) + '", not "' +
            truncate(reads, 60) + '": the page drew something else there; run scan to refresh');
      }
    }
    if (param(cmd, 'guard', false) === true && check === 'click') armGuard(item);
    if (param(cmd, 'watch', false) === true) armWatch();
    const out = { id: item.id, x: round(pt.x), y: round(pt.y), rect: rectJson(pt.rect),
      selector: itemSelector(item) };
    if (check === 'type' && param(cmd, 'focus_quiet', false) === true && focusQuietly(item, hit)) out.focused = true;
    if (pt.end) out.end = true;  // check "drop": the end of a list, which moves as the drag goes
    return out;
  }

  /**
   * point with focus_quiet (issue 17's typing): when no listener of the page would hear the
   * focusing click on a text field (its pointer and mouse events, the mouse leaving what it is
   * over now) nor the keys typed into it, the press can make no difference the page could tell:
   * the field takes the focus here instead (the same focus events) and its text is selected, so
   * that the text typed next replaces it. Only a field of this document that the click would hit
   * itself, and only where the listener registry answers. False: nothing was done.
   */
  function focusQuietly(item, hit) {
    const el = item.el;
    const doc = ownerDocument(el);
    const kind = editKind(el);
    if (doc !== TOP_DOC || hit !== el || (kind !== 'input' && kind !== 'textarea')) return false;
    if (askRegistryFor(doc, el, 'pq', ['pquiet', 'ploud']) !== 'pquiet') return false;
    const over = hoveredElement(doc);
    // A frame under the mouse: what listens inside it (to the mouse leaving) is not known here.
    if (over && FRAME_TAGS[tagOf(over)]) return false;
    if (over && over !== el && askRegistryFor(doc, over, 'lq', ['lquiet', 'lloud']) !== 'lquiet') return false;
    focus(el, { preventScroll: true });
    if (deepActiveElement(doc) !== el) return false;
    try {
      if (kind === 'input') inputSelect(el);
      else textareaSelect(el);
    } catch (e) {
      return false;
    }
    return true;
  }

  const FRAME_TAGS = { iframe: 1, frame: 1, object: 1, embed: 1 };

  /**
   * Script mode (input synthesized in this world: no `:hover` follows it): the element of `doc`
   * the synthesized mouse is over (the frame's element when it is over a frame's content), null
   * when over nothing of `doc`; undefined where no mouse was synthesized.
   */
  function synthesizedOver(doc) {
    let node;
    try {
      const mouse = globalThis.__lemmascopeMouse;
      if (!mouse || mouse.over === undefined) return undefined;
      node = mouse.over;
    } catch (e) {
      return undefined;
    }
    for (let guard = 0; node && guard < 32; guard++) {
      if (!isConnected(node)) return null;
      const own = ownerDocument(node);
      if (own === doc) return node;
      try {
        const win = docView(own);
        node = (win && win.frameElement) || null;
      } catch (e) {
        return null;
      }
    }
    return null;
  }

  /** The deepest element of `doc` the mouse is over (through open shadow roots), or null. */
  function hoveredElement(doc) {
    const synthesized = synthesizedOver(doc);
    if (synthesized !== undefined) return synthesized;
    let root = doc;
    let deepest = null;
    for (let guard = 0; root && guard < 32; guard++) {
      const over = nodeType(root) === DOCUMENT_NODE ? docQsa(root, ':hover') : fragQsa(root, ':hover');
      if (!over || !over.length) break;
      const last = over[over.length - 1];
      if (last === deepest) break;
      deepest = last;
      root = shadowRoot(last);
    }
    return deepest;
  }

  // ----- click guard -----
  // Between `point` and the backend's native click the page may move (a toast inserted above the
  // target, a list re-sorting): the press would land on whatever is there now. `point` with
  // `guard` arms a one-shot check, as Playwright checks its hit target: the first trusted press
  // event decides. On the target (or its label, or a host whose closed shadow holds it) the guard
  // disarms and the click goes on; anywhere else that press and the rest of its click are
  // cancelled before the page sees them, and `guard_result` tells the engine, which looks again.
  const GUARD_EVENTS = ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click', 'dblclick',
    'auxclick', 'contextmenu'];
  const GUARD_MS = 3000;  // never outlives a lost guard_result: a person's own clicks go through
  let guard = null;

  function guardHit(item, node) {
    const el = node && nodeType(node) !== ELEMENT_NODE ? composedParent(node) : node;
    if (!el) return false;
    const target = pointerTarget(item);
    return receivesPointer(item, el, null) || composedContains(el, target);
  }

  // Script mode (the extension where the browser refuses its debugger) synthesizes the user's
  // input in this world and names those events here: the guard weighs them as trusted ones.
  function synthesizedInput(e) {
    try {
      const named = globalThis.__lemmascopeSynthesized;
      return !!named && named.has(e);
    } catch (x) {
      return false;
    }
  }

  function onGuardEvent(e) {
    const g = guard;
    if (!g || !(e.isTrusted || synthesizedInput(e))) return;
    if (now() > g.until) {
      disarmGuard();
      return;
    }
    const path = B.eventComposedPath(e);
    const node = path && path.length ? path[0] : e.target;
    const ends = e.type === 'click' || e.type === 'contextmenu' || e.type === 'auxclick' || e.type === 'dblclick';
    if (g.confirmed) {
      // The press landed on the target; its release must too: a list that scrolls itself under
      // the pointer (Quasar's virtual scroll settling its offset) takes the target away between
      // press and release, and the click then goes to what holds both, choosing nothing. Such a
      // release is said (`slipped`) and its click held back; the engine presses again.
      if ((e.type === 'mouseup' || e.type === 'pointerup') && !g.slipped && releasedAway(g, node, e)) {
        g.slipped = describe(nodeType(node) === ELEMENT_NODE ? node : composedParent(node));
      }
      if (ends) {
        if (g.slipped) {
          B.eventPreventDefault(e);
          B.eventStopImmediate(e);
        }
        disarmGuard(true);
      }
      return;
    }
    if (!g.blocked && guardHit(g.item, node)) {
      g.confirmed = true;  // listening on, to the release
      g.pressed = chosenState(g.item);
      return;
    }
    if (!g.blocked) g.blocked = describe(nodeType(node) === ELEMENT_NODE ? node : composedParent(node));
    B.eventPreventDefault(e);
    B.eventStopImmediate(e);
    // The click (or the menu) ends the sequence a press started.
    if (ends) g.ended = true;
  }

  // What a press can choose on its own, before any click: an option a list selects on mousedown
  // (Headless UI's Combobox.Option) turns aria-selected, and a multiple list then grows its chips
  // above the field, moving the option away from the pointer before the release.
  // aria-selected and data-selected only in a list that keeps several choices: in one that keeps
  // one (cmdk, Downshift) they mark the highlighted item, which follows the pointer.
  const CHOSEN_ATTRS = ['aria-checked', 'aria-pressed', 'aria-current', 'data-state'];
  const SELECTED_ATTRS = ['aria-selected', 'data-selected'];

  function chosenState(item) {
    const out = [];
    const stateOf = (el, a) => push(out, hasAttribute(el, a) ? a + '=' + attr(el, a) : '');
    each([item.el, pointerTarget(item)], (el) => {
      each(CHOSEN_ATTRS, (a) => stateOf(el, a));
      if (closestAttr(el, 'aria-multiselectable', null) === 'true') each(SELECTED_ATTRS, (a) => stateOf(el, a));
      push(out, tagOf(el) === 'input' && inputChecked(el) ? '1' : '0');
    });
    return out.join('|');
  }

  /**
   * A release away from the target that took the press: still on the page (one the press removed,
   * an option chosen on mousedown, is no slip), not chosen by the press either (it moved because
   * choosing it changed the page), no longer under the point of the release, and the release not
   * on it either. Only where the event's point is in the target's document.
   */
  function releasedAway(g, node, e) {
    const item = g.item;
    const target = pointerTarget(item);
    if (!isConnected(target) || guardHit(item, node)) return false;
    if (g.pressed !== undefined && chosenState(item) !== g.pressed) return false;
    const at = nodeType(node) === ELEMENT_NODE ? node : composedParent(node);
    if (!at || ownerDocument(at) !== ownerDocument(target)) return false;
    const x = +e.clientX;
    const y = +e.clientY;
    if (!numIsFinite(x) || !numIsFinite(y)) return false;
    const r = getRect(target);
    return r.width > 0 && r.height > 0 && (x < r.left - 1 || x > r.right + 1 || y < r.top - 1 || y > r.bottom + 1);
  }

  function armGuard(item) {
    disarmGuard();
    const wins = [TOP_WINDOW];
    each(item.ctx.chain, (f) => { const d = safeContentDocument(f); if (d && docView(d)) push(wins, docView(d)); });
    guard = { item, wins, until: now() + GUARD_MS, confirmed: false, blocked: null, ended: false, slipped: null };
    each(wins, (w) => each(GUARD_EVENTS, (t) => addListener(w, t, onGuardEvent, true)));
  }

  /** Removes the listeners; `keep` leaves the result for guard_result. */
  function disarmGuard(keep) {
    const g = guard;
    if (!g || g.off) return;
    g.off = true;
    each(g.wins, (w) => each(GUARD_EVENTS, (t) => {
      try {
        removeListener(w, t, onGuardEvent, true);
      } catch (e) {
        // a frame gone meanwhile
      }
    }));
    if (!keep) guard = null;
  }

  /** guard_result: what the armed guard saw, then disarms it. */
  function cmdGuardResult() {
    const g = guard;
    if (!g) return { armed: false, confirmed: false, intercepted: null };
    // Events of a blocked press that are still to come (the click after a cancelled press)
    // are cancelled until the sequence ends or the guard expires.
    const out = { armed: true, confirmed: g.confirmed, intercepted: g.blocked, slipped: g.slipped };
    if (!g.blocked || g.ended) disarmGuard();
    else B.setTimeout(() => { if (guard === g) disarmGuard(); }, 300);
    if (guard === g && g.off) guard = null;
    return out;
  }

  async function cmdClick(cmd) {
    const item = requireId(cmd, 'click');
    const button = str(param(cmd, 'button', 'left'));
    if (!BUTTONS[button]) {
      throw fail('SCRIPT_ERROR', 'button must be "left", "right" or "middle", got "' + button + '"');
    }
    const count = mathMax(1, mathMin(3, mathFloor(+param(cmd, 'click_count', 1)) || 1));
    const flags = modifierFlags(param(cmd, 'modifiers', []));
    return clickItem(item, actionOptions(cmd, 'click'), button, count, flags);
  }

  async function clickItem(item, opts, button, count, flags) {
    const { pt, hit } = ensureActionable(item, opts);
    const target = eventTarget(item, hit);
    const watch = startWatch(item);
    dispatchClick(target, pt, button, count, flags);
    if (!watch.unloading()) await settle();
    const result = watch.stop();
    return { action: 'click', id: item.id, selector: itemSelector(item), x: round(pt.x),
      y: round(pt.y), button, click_count: count, navigated: result.navigated,
      changes: result.changes };
  }

  // ----- drag and drop (engine/page.cpp Page::drag moves the mouse; this finds where) -----

  /** `el` and its siblings built alike (a card among cards), in order; [el] alone when none. */
  function alikeSiblings(el) {
    const p = composedParent(el);
    return p ? filter(childElements(p), (s) => alike(s, el)) : [el];
  }

  /** A point of `item`'s document (lx, ly), with where it is in the top viewport (x, y). */
  function pointIn(item, lx, ly, rect) {
    const off = frameOffset(item.ctx.chain);
    return { x: lx + off.x, y: ly + off.y, lx, ly, rect };
  }

  // The item a drag of `el` moves: HTML's draggable box, a drag library's marked item, else the
  // nearest box with siblings built alike (a card among cards, a row among rows), else `el`.
  function dragItem(el) {
    let marked = null;
    for (let n = el, depth = 0; n && depth < 10 && !marked; n = composedParent(n), depth++) {
      if (tagOf(n) === 'body') break;
      if (attr(n, 'draggable') === 'true' || attr(n, 'data-rfd-draggable-id') || attr(n, 'data-rbd-draggable-id') ||
          reTest(/sortable|draggable/i, attr(n, 'aria-roledescription'))) marked = n;
    }
    let alikeBox = null;
    for (let n = el, depth = 0; n && depth < 10 && !alikeBox; n = composedParent(n), depth++) {
      const p = composedParent(n);
      if (!p || tagOf(p) === 'body') break;
      if (alikeSiblings(n).length >= 2) alikeBox = n;
    }
    // A marked grip (an icon, no words) inside a row among rows is the row's handle (dnd kit's
    // activator); a marked card with words is the item itself (@hello-pangea/dnd's, role=button).
    const handle = marked && !reTest(/[\p{L}\p{N}]/u, collapse(textContent(marked)));
    if (marked && !(handle && alikeBox && alikeBox !== marked && composedContains(alikeBox, marked))) return marked;
    return alikeBox || el;
  }

  const GRIP_CLASS = /(^|[-_\s])(handle|grip|grabber|drag-?handle|dragger|reorder)([-_\s]|$)/i;
  const GRIP_WORDS = /\b(drag|reorder|grab)\b/i;

  /** A small part of `item` a person presses to drag it (a grip, a "Drag" handle), or null. */
  function dragHandle(item, within) {
    const box = getRect(item);
    const area = box.width * box.height;
    const isGrip = (n) => {
      const st = styleOf(n);
      const cursor = st ? lc(st.cursor) : '';
      return reTest(GRIP_CLASS, attr(n, 'class')) || reTest(GRIP_WORDS, attr(n, 'aria-label')) ||
          reTest(GRIP_WORDS, attr(n, 'title')) || reTest(/sortable|draggable/i, attr(n, 'aria-roledescription')) ||
          cursor === 'grab' || cursor === '-webkit-grab' || cursor === 'move';
    };
    // The whole item is what is pressed (its own cursor says so), or the target is the grip.
    if (isGrip(item) && !reTest(GRIP_CLASS, attr(item, 'class'))) return null;
    if (within !== item && isGrip(within)) return within;
    let found = null;
    let seen = 0;
    walkComposed(item, (n) => {
      if (found || ++seen > 80) return false;
      if (n === item) return true;
      const r = getRect(n);
      if (r.width > 0 && r.height > 0 && r.width * r.height <= area * 0.4 && isGrip(n) && rendered(n)) found = n;
      return !found;
    });
    return found;
  }

  /** A heading, a label, a caption, or a short line of text and nothing else: what names a list. */
  function namesList(el) {
    // A row among rows built alike (a folder in a sidebar) is a place of its own, not a title.
    if (alikeSiblings(el).length >= 2) return false;
    if (headingRank(el) > 0 || tagOf(el) === 'legend' || tagOf(el) === 'label' || tagOf(el) === 'caption') return true;
    const r = getRect(el);
    const text = collapse(safeInnerText(el));
    return !!text && text.length <= 60 && r.height <= 60 && !composedMatches([el], 'a[href], button, input, select, textarea, [role=button]', 1).length;
  }

  /** The list or column a heading (a title, a label) stands over: the tallest box under it. */
  function listUnder(el) {
    const own = getRect(el);
    for (let a = composedParent(el), depth = 0; a && depth < 6 && tagOf(a) !== 'body'; a = composedParent(a), depth++) {
      const r = getRect(a);
      if (r.height < own.height + 30) continue;
      const kids = filter(childElements(a), (k) => getRect(k).height > 0);
      // Side by side: a row of columns (the board), not one column.
      for (let i = 1; i < kids.length; i++) {
        if (getRect(kids[i]).top < getRect(kids[i - 1]).bottom - 4) return null;
      }
      let best = null;
      each(kids, (k) => {
        const kr = getRect(k);
        if (composedContains(k, el) || kr.top < own.bottom - 4) return;
        if (!best || kr.height > getRect(best).height) best = k;
      });
      if (!best) return null;
      // Through wrappers: a lone child that fills its parent is the same place.
      for (let guard = 0; guard < 4; guard++) {
        const inner = childElements(best);
        const br = getRect(best);
        if (inner.length !== 1) break;
        const ir = getRect(inner[0]);
        if (ir.width * ir.height < br.width * br.height * 0.7) break;
        best = inner[0];
      }
      return best;
    }
    return null;
  }

  /** Where a drop at the end of `list` lands: under its last item when there is room, else on its lower part. */
  function endOfList(list) {
    const r = getRect(list);
    const kids = filter(childElements(list), (k) => getRect(k).height > 0);
    if (!kids.length) return { x: r.left + r.width / 2, y: r.top + mathMin(r.height / 2, 40) };
    const last = getRect(kids[kids.length - 1]);
    const room = r.bottom - last.bottom;
    // (Just under the last item, inside the list: SortableJS appends only there; a few pixels do.)
    return { x: r.left + r.width / 2, y: room >= 4 ? last.bottom + mathMin(room / 2, 24) : last.top + last.height * 0.75 };
  }

  // The item the last `point` with check "grab" chose: what the drop that follows is judged by.
  let dragSource = null;

  /** The nearest of `el` and its ancestors below `stop` that matches `selector`, or null. */
  function closestMatch(el, selector, stop) {
    for (let n = el; n && n !== stop; n = composedParent(n)) if (matches(n, selector)) return n;
    return null;
  }

  /**
   * Named by a control inside it (a task's "Done: …" checkbox), an item is taken hold of (or
   * dropped on) at a point of its own that no control takes, as a person would: a library leaves
   * its controls out of drags (Dragula's `invalid`). Else `pt`.
   */
  function itemPoint(item, unit, pt) {
    if (unit === item.el || !matches(item.el, DRAG_CONTROLS)) return pt;
    const r = getRect(unit);
    for (let i = 0; i < 8; i++) {
      const at = pointIn(item, r.left + mathMin(12, r.width / 4) + mathMax(0, r.width - 24) * i / 8, r.top + r.height / 2, pt.rect);
      const hit = hitAt(item.ctx.chain, at.x, at.y);
      if (hit && composedContains(unit, hit) && !closestMatch(hit, DRAG_CONTROLS, unit)) return at;
    }
    return pt;
  }

  /**
   * To take another item's place, a person carries the item past that one's middle: from after
   * it (further down its list, or from another list), over its first third; from before it, over
   * its last third. Along the list's own direction (a row of cards: across).
   */
  function takePlace(item, unit, source, pt) {
    if (unit === source || !pt.rect) return pt;
    const tr = getRect(unit);
    const sr = getRect(source);
    const sameList = composedParent(unit) === composedParent(source);
    const across = sameList && mathAbs(sr.left - tr.left) > mathAbs(sr.top - tr.top);
    const before = sameList && (across ? sr.left < tr.left : sr.top < tr.top);
    const at = before ? 0.7 : 0.3;
    return across ? pointIn(item, tr.left + tr.width * at, pt.ly, pt.rect) : pointIn(item, pt.lx, tr.top + tr.height * at, pt.rect);
  }

  const DRAG_CONTROLS = 'input, button, select, textarea, a[href], label, [role=button], [role=checkbox], [role=switch], [role=link]';

  /** The point check "grab": on the handle of the dragged item when it has one. */
  function grabPoint(item, pt) {
    const unit = dragItem(item.el);
    dragSource = unit;
    const handle = dragHandle(unit, item.el);
    if (!handle) return itemPoint(item, unit, pt);
    if (handle === item.el) return pt;
    const r = getRect(handle);
    const at = pointIn(item, r.left + r.width / 2, r.top + r.height / 2, pt.rect);
    const hit = hitAt(item.ctx.chain, at.x, at.y);
    return hit && composedContains(unit, hit) ? at : pt;
  }

  /**
   * The point check "drop": on an item like the one dragged, past its middle (it takes that place);
   * on a heading or label over a list or column, the end of that list; else the element's middle.
   */
  function dropPoint(item, pt) {
    const el = pointerTarget(item);
    const source = dragSource && isConnected(dragSource) ? dragSource : null;
    if (source && ownerDocument(source) !== ownerDocument(el)) {
      throw fail('ELEMENT_NOT_INTERACTABLE', 'element ' + itemLabel(item) + ' is in another document than the dragged one; drag within one document');
    }
    const unit = dragItem(el);
    if (source && (alike(unit, source) || alike(el, source) || composedContains(source, el))) {
      return takePlace(item, unit, source, itemPoint(item, unit, pt));
    }
    // A heading names the list under it; a list itself takes the drop at its end; anything else
    // (a folder row, a drop zone) takes it where it is.
    const list = (namesList(el) ? listUnder(el) : null) || (alikeChildren(el) ? el : null);
    if (!list) return pt;
    const at = endOfList(list);
    const vp = viewportSize(ownerDocument(el));
    return { ...pointIn(item, at.x, mathMax(2, mathMin(at.y, vp.height - 4)), pt.rect), end: true };
  }

  // What the page's own HTML drag and drop did since `watch` (the native press starts it in
  // Chromium; not from synthetic events, nor in WebKit's WebDriver).
  const dragSeen = { started: false, dropped: false, draggable: false };
  const dragArmed = new B.WeakSet();  // windows whose drag events are listened to

  function closestDraggable(el) {
    for (let n = el, depth = 0; n && depth < 12; n = composedParent(n), depth++) {
      if (attr(n, 'draggable') === 'true') return n;
    }
    return null;
  }

  /** The HTML drag and drop a browser runs, as events: dragstart, enter and over the place, drop, dragend. */
  async function html5Drag(source, dest) {
    // (A library that made it draggable for the press may have made it undraggable again since.)
    const from = closestDraggable(source.el) || (dragSeen.draggable ? dragItem(source.el) : null);
    if (!from) return { dropped: false };
    const view = windowOf(from);
    const Transfer = view && view.DataTransfer;
    const data = Transfer ? new Transfer() : null;
    const grip = dragHandle(from, source.el);
    const fr = getRect(grip || from);
    const start = { x: fr.left + fr.width / 2, y: fr.top + fr.height / 2 };
    const to = dropPoint(dest, actionPoint(dest));
    const init = (x, y) => ({ bubbles: true, cancelable: true, composed: true, view, clientX: x, clientY: y,
      screenX: x, screenY: y, dataTransfer: data });
    // The press a drag starts with (a library readies the item on it: SortableJS's pointerdown).
    const doc = ownerDocument(from);
    const under = () => deepElementFromPoint(doc, to.lx, to.ly);
    const pressed = deepElementFromPoint(doc, start.x, start.y);
    const on = pressed && composedContains(from, pressed) ? pressed : from;
    const press = { bubbles: true, cancelable: true, composed: true, view, clientX: start.x, clientY: start.y,
      screenX: start.x, screenY: start.y, button: 0, buttons: 1, detail: 1, pointerId: 1, pointerType: 'mouse', isPrimary: true };
    firePointer(on, 'pointerdown', press);
    fire(on, 'MouseEvent', 'mousedown', press);
    const lift = { ...press, buttons: 0 };
    if (!fire(from, 'DragEvent', 'dragstart', init(start.x, start.y))) {
      // No drag: the press ends as a press does.
      firePointer(on, 'pointerup', lift);
      fire(on, 'MouseEvent', 'mouseup', lift);
      return { dropped: false };
    }
    // A drag that starts takes the pointer from the page (pointercancel), as in a browser.
    firePointer(on, 'pointercancel', lift);
    // The page's own work between the events, as between a browser's (SortableJS starts the drag
    // a tick after dragstart).
    await settle();
    fire(from, 'DragEvent', 'drag', init(start.x, start.y));
    const target = under() || dest.el;
    fire(target, 'DragEvent', 'dragenter', init(to.lx, to.ly));
    let accepts = false;
    for (let i = 0; i < 3; i++) {
      const over = under() || target;
      accepts = !fire(over, 'DragEvent', 'dragover', init(to.lx, to.ly)) || accepts;
      await settle();
    }
    const last = under() || target;
    if (accepts) fire(last, 'DragEvent', 'drop', init(to.lx, to.ly));
    else fire(last, 'DragEvent', 'dragleave', init(to.lx, to.ly));
    fire(from, 'DragEvent', 'dragend', init(to.lx, to.ly));
    await settle();
    return { dropped: accepts };
  }

  /** The heading of the list or column `item` is in (the nearest one above it there), or ''. */
  function placeHeading(item) {
    const list = composedParent(item);
    const ir = getRect(item);
    for (let a = list, depth = 0; a && depth < 5 && tagOf(a) !== 'body'; a = composedParent(a), depth++) {
      // Above the item and over it (a board's column titles in a row of their own too): the nearest.
      let best = null;
      let bestBottom = -Infinity;
      each(composedMatches([a], HEADINGS + ', legend, caption, [class*=title i], [class*=header i]', 200), (h) => {
        if (composedContains(list, h) || composedContains(h, list)) return;
        const r = getRect(h);
        if (r.width <= 0 || r.bottom > ir.top + 2 || r.right <= ir.left || r.left >= ir.right || r.bottom <= bestBottom) return;
        if (!rendered(h) || !collapse(safeInnerText(h))) return;
        best = h;
        bestBottom = r.bottom;
      });
      if (best) return truncate(collapse(safeInnerText(best)), 40);
    }
    return '';
  }

  /** Where a dragged item is: the heading over its list, and its place among the items alike. */
  function dragPlace(item) {
    if (!item || !isConnected(item)) return null;
    const sibs = alikeSiblings(item);
    const at = indexOf(sibs, item);
    if (at < 0) return null;  // not drawn
    return { under: placeHeading(item), index: at + 1, count: sibs.length };
  }

  // The dragged item when `watch` was asked, and how to find it again when the page drew it anew.
  let dragWatched = null;

  function draggedNow() {
    const w = dragWatched;
    if (!w) return null;
    if (isConnected(w.el)) return w.el;
    if (!w.text) return null;
    // Drawn anew (React moved it to another list): the one built alike that reads the same.
    let all = [];
    try {
      all = queryAll(w.doc, w.tag);
    } catch (e) {
      return null;  // a tag name no selector takes
    }
    return find(all, (n) => alike(n, w.el) && rendered(n) && (w.cut ? strIndexOf(collapse(safeInnerText(n)), w.text) === 0
        : collapse(safeInnerText(n)) === w.text)) || null;
  }

  /** drag: watch (the page's HTML drag events from here), frame (two animation frames), seen, html5. */
  async function cmdDrag(cmd) {
    const op = str(param(cmd, 'op', ''));
    if (op === 'frame') {
      await settle();
      await settle();
      return {};
    }
    if (op === 'watch') {
      const item = requireId(cmd, 'drag');
      // The window of the item's own document (a same-origin frame's is not the top one's).
      const win = windowOf(item.el);
      if (!wsHas(dragArmed, win)) {
        wsAdd(dragArmed, win);
        addListener(win, 'dragstart', () => { dragSeen.started = true; }, true);
        addListener(win, 'drop', () => { dragSeen.dropped = true; }, true);
        // A library may make the item draggable only when it is pressed (SortableJS).
        addListener(win, 'mousemove', () => {
          if (!dragSeen.draggable && dragWatched && isConnected(dragWatched.el)) dragSeen.draggable = !!closestDraggable(dragWatched.el);
        }, true);
      }
      dragSeen.started = false;
      dragSeen.dropped = false;
      dragSeen.draggable = !!closestDraggable(item.el);
      const unit = dragItem(item.el);
      const text = collapse(safeInnerText(unit));
      const cut = text.length > 60;
      dragWatched = { el: unit, doc: ownerDocument(unit), tag: tagOf(unit), text: cut ? strSlice(text, 0, 60) : text, cut };
      return { place: dragPlace(unit) };
    }
    if (op === 'seen') {
      return { started: dragSeen.started, dropped: dragSeen.dropped, draggable: dragSeen.draggable,
        place: dragPlace(draggedNow()) };
    }
    if (op === 'html5') {
      const source = requireId(cmd, 'drag');
      const dest = requireId({ id: param(cmd, 'to', null) }, 'drag');
      return html5Drag(source, dest);
    }
    throw fail('SCRIPT_ERROR', 'drag op must be watch, frame, seen or html5, got "' + op + '"');
  }

  async function cmdHover(cmd) {
    const item = requireId(cmd, 'hover');
    const { pt, hit } = ensureActionable(item, actionOptions(cmd, 'hover'));
    const target = eventTarget(item, hit);
    const watch = startWatch(item);
    dispatchHover(target, pt, modifierFlags([]));
    await settle();
    const result = watch.stop();
    return { action: 'hover', id: item.id, selector: itemSelector(item), x: round(pt.x),
      y: round(pt.y), changes: result.changes };
  }

  function cmdFocus(cmd) {
    const item = requireId(cmd, 'focus');
    if (isDisabled(item.el)) {
      throw fail('ELEMENT_DISABLED', 'element ' + itemLabel(item) + ' is disabled and cannot take focus; wait for it to be enabled');
    }
    if (hasOwn(cmd, 'section')) {
      // One part of a field drawn section by section, focused as a press does (the page selects
      // the section on its focus): where the engine types that part. Its text says what it holds.
      const i = countParam(cmd, 'section', 0);
      const el = item.sections ? item.segments[i] : null;
      if (!el) throw fail('SCRIPT_ERROR', 'element ' + itemLabel(item) + ' has no section ' + i);
      pressToFocus(el);
      return { action: 'focus', id: item.id, focused: deepActiveElement(TOP_DOC) === el,
        text: sectionEmpty(el) ? '' : collapse(textContent(el)) };
    }
    focus(item.el, { preventScroll: false });
    const focused = deepActiveElement(TOP_DOC) === item.el;
    if (!focused) {
      throw fail('ELEMENT_NOT_INTERACTABLE', 'element ' + itemLabel(item) + ' cannot take keyboard focus; click it instead');
    }
    return { action: 'focus', id: item.id, focused };
  }

  // ----- typing -----

  const WHOLE_VALUE_TYPES = { date: 1, 'datetime-local': 1, month: 1, week: 1, time: 1, color: 1,
    range: 1 };
  const ACCUMULATE_TYPES = { number: 1, email: 1 };

  /** "input", "textarea", "editable" or null for elements that cannot take text. */
  function editKind(el) {
    const tag = tagOf(el);
    if (tag === 'input') return NON_TEXT_INPUTS[lc(attr(el, 'type'))] && !WHOLE_VALUE_TYPES[lc(attr(el, 'type'))] ? null : 'input';
    if (tag === 'textarea') return 'textarea';
    if (isEditable(el)) return 'editable';
    return null;
  }

  function currentValue(el, kind) {
    if (kind === 'input') return str(inputValue(el));
    if (kind === 'textarea') return str(textareaValue(el));
    return str(safeInnerText(el));
  }

  /** Sets the value through the prototype setter so React/Vue value trackers see a change. */
  function setNativeValue(el, kind, value) {
    if (kind === 'input') setInputValue(el, value);
    else setTextareaValue(el, value);
  }

  function keyInit(el, key, code, keyCode, charCode) {
    return { key, code, bubbles: true, cancelable: true, composed: true, view: windowOf(el),
      legacyKeyCode: keyCode, legacyCharCode: charCode };
  }

  function keyDescriptor(ch) {
    if (ch === '\n') return { key: 'Enter', code: 'Enter', keyCode: 13 };
    const letter = reTest(/^[a-z]$/i, ch);
    const digit = reTest(/^[0-9]$/, ch);
    const code = letter ? 'Key' + toUpper(ch) : digit ? 'Digit' + ch : ch === ' ' ? 'Space' : '';
    const keyCode = letter ? charCodeAt(toUpper(ch), 0) : digit || ch === ' ' ? charCodeAt(ch, 0) : 0;
    return { key: ch, code, keyCode };
  }

  function inputEventInit(el, inputType, data) {
    return { bubbles: true, cancelable: inputType !== null, composed: true, inputType, data,
      view: windowOf(el) };
  }

  /** Types one character like a keyboard: keydown, keypress, beforeinput, value, input, keyup. */
  function typeChar(el, kind, ch, acc) {
    const k = keyDescriptor(ch);
    const cc = charCodeAt(ch, 0);
    let proceed = fire(el, 'KeyboardEvent', 'keydown', keyInit(el, k.key, k.code, k.keyCode, 0));
    if (proceed && !(ch === '\n' && kind === 'input')) {
      proceed = fire(el, 'KeyboardEvent', 'keypress', keyInit(el, k.key, k.code, cc, cc));
    }
    if (proceed && !(ch === '\n' && kind === 'input')) insertText(el, kind, ch, acc);
    fire(el, 'KeyboardEvent', 'keyup', keyInit(el, k.key, k.code, k.keyCode, 0));
  }

  function insertText(el, kind, ch, acc) {
    const inputType = ch === '\n' ? 'insertLineBreak' : 'insertText';
    if (kind === 'editable') {
      if (docExecCommand(ownerDocument(el), 'insertText', false, ch)) return;
      if (!fire(el, 'InputEvent', 'beforeinput', inputEventInit(el, inputType, ch))) return;
      appendTextNode(el, ch);
      fire(el, 'InputEvent', 'input', inputEventInit(el, inputType, ch));
      return;
    }
    if (!fire(el, 'InputEvent', 'beforeinput', inputEventInit(el, inputType, ch))) return;
    const max = kind === 'input' || kind === 'textarea' ? +attr(el, 'maxlength') : 0;
    const type = lc(attr(el, 'type'));
    const base = ACCUMULATE_TYPES[type] ? acc.value : currentValue(el, kind);
    if (max > 0 && base.length >= max) return;
    acc.value = base + ch;
    setNativeValue(el, kind, acc.value);
    fire(el, 'InputEvent', 'input', inputEventInit(el, inputType, ch));
  }

  function appendTextNode(el, text) {
    const doc = ownerDocument(el);
    el.appendChild(doc.createTextNode(text));
    caretToEnd(el);
  }

  function caretToEnd(el) {
    const win = windowOf(el);
    const sel = B.getSelection ? B.getSelection(win) : null;
    if (!sel) return;
    const range = docCreateRange(ownerDocument(el));
    rangeSelectContents(range, el);
    rangeCollapse(range, false);
    selRemoveAll(sel);
    selAddRange(sel, range);
  }

  /** Empties a field the way select-all + Delete does. */
  function clearField(el, kind) {
    if (kind === 'editable') {
      const win = windowOf(el);
      const sel = B.getSelection ? B.getSelection(win) : null;
      if (sel) {
        const range = docCreateRange(ownerDocument(el));
        rangeSelectContents(range, el);
        selRemoveAll(sel);
        selAddRange(sel, range);
      }
      if (!safeInnerText(el) || docExecCommand(ownerDocument(el), 'delete', false, null)) return;
      el.textContent = '';
      fire(el, 'InputEvent', 'input', inputEventInit(el, 'deleteContentBackward', null));
      return;
    }
    if (currentValue(el, kind) === '') return;
    if (!fire(el, 'InputEvent', 'beforeinput', inputEventInit(el, 'deleteContentBackward', null))) return;
    setNativeValue(el, kind, '');
    fire(el, 'InputEvent', 'input', inputEventInit(el, 'deleteContentBackward', null));
  }

  /**
   * Focuses `el` as a press does, mousedown before the focus and mouseup after: a widget that
   * closes when its field blurs (a date picker) knows the press was inside it. A page that
   * cancels the mousedown keeps the focus where it is, as a browser does for a press (a modal's
   * focus trap holding back a press outside it): the keys then go where the page put them.
   * False: the page held the press back.
   */
  function pressToFocus(el) {
    if (deepActiveElement(TOP_DOC) === el) return true;
    const pressed = fire(el, 'MouseEvent', 'mousedown', { bubbles: true, cancelable: true, composed: true, view: windowOf(el) });
    if (pressed) focus(el, { preventScroll: true });
    fire(el, 'MouseEvent', 'mouseup', { bubbles: true, cancelable: true, composed: true, view: windowOf(el) });
    return pressed;
  }

  function focusForTyping(el, kind) {
    const doc = ownerDocument(el);
    // A field the page held the press back from gets no caret either: placing one focuses the
    // field in WebKit (setSelectionRange), and an editable element everywhere.
    if (!pressToFocus(el)) return doc;
    if (kind === 'editable') caretToEnd(el);
    else if (kind === 'input' || kind === 'textarea') {
      const len = currentValue(el, kind).length;
      try {
        if (kind === 'input') setSelectionRange(el, len, len);
        else textareaSetSelectionRange(el, len, len);
      } catch (e) {
        // email/number inputs have no selection API; the value is appended anyway
      }
    }
    return doc;
  }

  function editableItem(cmd, name) {
    const item = requireId(cmd, name);
    const kind = editKind(item.el);
    if (!kind) {
      const hint = item.type === 'select' ? 'use select' : item.type === 'checkbox' ||
          item.type === 'radio' ? 'use check or uncheck' : 'use click';
      throw fail('ELEMENT_NOT_INTERACTABLE', 'element ' + itemLabel(item) + ' does not take text (' +
          item.tag + '); ' + hint);
    }
    return { item, kind };
  }

  /**
   * The value of a range input for what a person reads on it: "25 km" is 25, and a percentage is
   * that share of the way from min to max ("30%" on Base UI's 0..1 slider is 0.3, on a 0..100
   * one 30). Text with no number is kept (the browser then keeps the range's own default).
   */
  function rangeValueOf(el, text) {
    const m = B.reExec(/-?\d+(?:\.\d+)?/, strReplace(text, /,/g, ''));
    if (!m) return text;
    const n = +m[0];
    if (strIndexOf(text, '%') < 0) return str(n);
    const bound = (name, none) => {
      const v = hasAttribute(el, name) ? +attr(el, name) : NaN;
      return numIsFinite(v) ? v : none;
    };
    const lo = bound('min', 0);
    const hi = bound('max', 100);
    return str(mathRound((lo + (n / 100) * (hi - lo)) * 1e9) / 1e9);  // (no float dust: 0.3, not 0.30000000000000004)
  }

  async function cmdType(cmd) {
    const { item, kind } = editableItem(cmd, 'type');
    if (!hasOwn(cmd, 'text') || cmd.text === null || typeof cmd.text === 'object') {
      throw fail('SCRIPT_ERROR', 'type needs "text", the string to type');
    }
    const text = str(cmd.text);
    const clear = param(cmd, 'clear', true) !== false;
    const delay = countParam(cmd, 'delay', 0);
    const el = item.el;
    ensureActionable(item, actionOptions(cmd, 'type'));
    focusForTyping(el, kind);
    const before = currentValue(el, kind);
    if (clear) clearField(el, kind);
    const type = lc(attr(el, 'type'));
    // `paste`: the text in one step as a paste puts it, one input event and no keys (a field
    // that rewrites every key: the engine's last resort where the backend cannot commit text).
    const paste = param(cmd, 'paste', false) === true && kind !== 'editable';
    if ((kind === 'input' && WHOLE_VALUE_TYPES[type]) || paste) {
      const value = type === 'range' && !paste ? rangeValueOf(el, text) : text;
      setNativeValue(el, kind, value);
      fire(el, 'InputEvent', 'input', inputEventInit(el, paste ? 'insertFromPaste' : 'insertText', value));
    } else {
      const acc = { value: currentValue(el, kind) };
      for (let i = 0; i < text.length; i++) {
        typeChar(el, kind, text[i], acc);
        if (delay > 0 && i < text.length - 1) await sleep(delay);
      }
    }
    const after = currentValue(el, kind);
    if (kind !== 'editable' && after !== before) fire(el, 'Event', 'change', { bubbles: true });
    return { action: 'type', id: item.id, typed: maskIfPassword(el, text),
      value: maskIfPassword(el, kind === 'editable' ? collapse(after) : after) };
  }

  async function cmdClear(cmd) {
    const { item, kind } = editableItem(cmd, 'clear');
    ensureActionable(item, actionOptions(cmd, 'type'));
    focusForTyping(item.el, kind);
    if (item.sections) {
      throw fail('SCRIPT_ERROR', 'element ' + itemLabel(item) + ' is drawn section by section: the engine empties it with keys');
    }
    if (item.segments) {
      // A code split over boxes: each box emptied, the last first, as Backspace would.
      for (let i = item.segments.length - 1; i >= 0; i--) clearField(item.segments[i], 'input');
      return { action: 'clear', id: item.id, value: segmentsValue(item) };
    }
    const before = currentValue(item.el, kind);
    clearField(item.el, kind);
    if (kind !== 'editable' && before !== '') fire(item.el, 'Event', 'change', { bubbles: true });
    return { action: 'clear', id: item.id, value: currentValue(item.el, kind) };
  }

  // ----- check / uncheck -----

  async function setChecked(cmd, want) {
    const name = want ? 'check' : 'uncheck';
    const item = requireId(cmd, name);
    if (item.type !== 'checkbox' && item.type !== 'radio') {
      throw fail('ELEMENT_NOT_INTERACTABLE', 'element ' + itemLabel(item) +
          ' is not a checkbox or radio button; use click');
    }
    const before = checkedState(item.el, item.tag, item.type);
    if (before === want) return { action: name, id: item.id, checked: before, changed: false };
    if (!want && item.type === 'radio') {
      throw fail('ELEMENT_NOT_INTERACTABLE', 'radio button ' + itemLabel(item) +
          ' cannot be unchecked directly; check another option of its group');
    }
    await clickItem(item, actionOptions(cmd, 'click'), 'left', 1, modifierFlags([]));
    const after = checkedState(item.el, item.tag, item.type);
    if (after !== want) {
      throw fail('ELEMENT_NOT_INTERACTABLE', 'clicking ' + itemLabel(item) + ' did not ' + name +
          ' it; the page handles it differently: scan again and click the visible control');
    }
    return { action: name, id: item.id, checked: after, changed: true };
  }

  // ----- select -----

  function optionInfo(o) { return { value: str(optionValue(o)), text: collapse(optionText(o)) }; }

  function selectedInfo(el) {
    const i = selectSelectedIndex(el);
    const opts = selectOptions(el);
    return i >= 0 && i < opts.length ? optionInfo(opts[i]) : { value: '', text: '' };
  }

  /** Finds option indexes for one wanted value/text/index. */
  function findOption(opts, by, want) {
    if (by === 'index') {
      const n = +want;
      return numIsInteger(n) && n >= 0 && n < opts.length ? n : -1;
    }
    const w = str(want);
    const exact = (o) => (by === 'value' ? str(optionValue(o)) : collapse(optionText(o))) === w;
    for (let i = 0; i < opts.length; i++) if (exact(opts[i])) return i;
    if (by === 'text') {
      const wl = lc(collapse(w));
      for (let i = 0; i < opts.length; i++) if (lc(collapse(optionText(opts[i]))) === wl) return i;
      for (let i = 0; i < opts.length; i++) if (contains_(lc(optionText(opts[i])), wl)) return i;
    }
    return -1;
  }

  function cmdSelect(cmd) {
    const item = requireId(cmd, 'select');
    const el = item.el;
    if (item.tag !== 'select') {
      throw fail('ELEMENT_NOT_INTERACTABLE', 'element ' + itemLabel(item) + ' is not a native ' +
          '<select>; click it to open the list, scan, then click the option');
    }
    if (isDisabled(el)) {
      throw fail('ELEMENT_DISABLED', 'select ' + itemLabel(item) + ' is disabled; wait for it to be enabled');
    }
    const by = hasOwn(cmd, 'value') && cmd.value !== null ? 'value'
        : hasOwn(cmd, 'text') && cmd.text !== null ? 'text'
        : hasOwn(cmd, 'index') && cmd.index !== null ? 'index' : '';
    if (!by) throw fail('SCRIPT_ERROR', 'select needs one of "value", "text" or "index"');
    const wanted = isArray(cmd[by]) ? cmd[by] : [cmd[by]];
    if (wanted.length > 1 && !selectMultiple(el)) {
      throw fail('ELEMENT_NOT_INTERACTABLE', 'select ' + itemLabel(item) + ' takes one option, not ' + wanted.length +
          '; choose one');
    }
    const opts = selectOptions(el);
    const indexes = map(wanted, (w) => {
      const i = findOption(opts, by, w);
      if (i < 0) {
        throw fail('ELEMENT_NOT_FOUND', 'no option with ' + by + ' ' + toJson(w) + ' in ' +
            itemLabel(item) + '; available: ' + join(map(sliceArr(opts, 0, mathMin(opts.length, 30)),
              (o) => jsonStringify(by === 'value' ? str(optionValue(o)) : collapse(optionText(o)))), ', '));
      }
      if (optionDisabled(opts[i])) {
        throw fail('ELEMENT_DISABLED', 'option ' + jsonStringify(collapse(optionText(opts[i]))) +
            ' of ' + itemLabel(item) + ' is disabled');
      }
      return i;
    });
    const previous = selectedInfo(el);
    const picked = map(indexes, (i) => opts[i]);  // (opts may be live: the page may move them)
    pressToFocus(el);
    if (selectMultiple(el)) {
      each(opts, (o, i) => setOptionSelected(o, includes(indexes, i)));
    } else {
      setSelectSelectedIndex(el, indexes[0]);
    }
    fire(el, 'Event', 'input', { bubbles: true, composed: true });
    fire(el, 'Event', 'change', { bubbles: true });
    const now_ = selectedInfo(el);
    const out = { action: 'select', id: item.id, value: now_.value, text: now_.text, previous };
    if (selectMultiple(el)) {
      out.values = selectedValues(el);
      out.texts = map(filter(opts, (o) => optionSelected(o)), (o) => collapse(optionText(o)));
    }
    // Options the page took out of this select on change: a dual list box (Bootstrap Duallistbox)
    // moves a picked name to its other list. What was picked is the choice made.
    const moved = filter(picked, (o) => !composedContains(el, o));
    if (moved.length && !now_.text) {
      out.value = str(optionValue(moved[0]));
      out.text = collapse(optionText(moved[0]));
      out.moved = true;
      if (selectMultiple(el) && !out.texts.length) out.texts = map(moved, (o) => collapse(optionText(o)));
    }
    return out;
  }

  function selectedValues(el) {
    return map(filter(selectOptions(el), (o) => optionSelected(o)), (o) => str(optionValue(o)));
  }

  // ----- scroll -----

  const DIRECTIONS = { up: 1, down: 1, left: 1, right: 1, top: 1, bottom: 1 };

  function scrollState(target) {
    if (!target) return pageScroll(TOP_DOC);
    return { x: round(scrollLeft(target)), y: round(scrollTop(target)),
      max_x: mathMax(0, round(scrollWidth(target) - clientWidth(target))),
      max_y: mathMax(0, round(scrollHeight(target) - clientHeight(target))) };
  }

  async function cmdScroll(cmd) {
    const behavior = str(param(cmd, 'behavior', 'instant'));
    if (behavior !== 'instant' && behavior !== 'smooth' && behavior !== 'auto') {
      throw fail('SCRIPT_ERROR', 'behavior must be "instant" or "smooth", got "' + behavior + '"');
    }
    if (hasOwn(cmd, 'element') && cmd.element !== null && cmd.element !== undefined) {
      const item = lookup(cmd.element);
      const alreadyShown = fullyInside(topRect(pointerTarget(item), item.ctx.chain), viewportSize(TOP_DOC));
      scrollIntoView(pointerTarget(item), { block: 'center', inline: 'nearest', behavior });
      if (behavior === 'smooth' && !alreadyShown) {
        await scrollSettled(TOP_WINDOW, () => { const p = scrollState(null); p.arrived = false; return p; });
      }
      const out = scrollState(null);
      out.element = item.id;
      out.in_viewport = boxesOverlap(topRect(pointerTarget(item), item.ctx.chain),
          { x: 0, y: 0, width: viewportSize(TOP_DOC).width, height: viewportSize(TOP_DOC).height });
      return out;
    }
    const container = param(cmd, 'container', null);
    const within = param(cmd, 'within', null);
    let target = null;
    if (within !== null) {
      // The box that scrolls around an element (an open list whose options render as it scrolls).
      const item = lookup(within);
      for (let n = composedParent(item.el); n && !target; n = composedParent(n)) {
        const tag = tagOf(n);
        if (tag === 'html' || tag === 'body') break;
        if (scrollsItsContent(n)) target = n;
      }
      if (!target) throw fail('ELEMENT_NOT_FOUND', 'nothing scrolls around ' + itemLabel(item));
    } else if (container !== null) {
      const found = resolveAll(str(container));
      if (!found.length) {
        throw fail('ELEMENT_NOT_FOUND', 'no element matches container "' + container + '"; check it with exists');
      }
      const tag = tagOf(found[0]);
      target = tag === 'html' || tag === 'body' ? null : found[0];
    }
    const direction = lc(param(cmd, 'direction', 'down'));
    if (!DIRECTIONS[direction]) {
      throw fail('SCRIPT_ERROR', 'direction must be up, down, left, right, top or bottom, got "' + direction + '"');
    }
    const before = scrollState(target);
    const delta = scrollDelta(direction, param(cmd, 'amount', null), target, before);
    const opts = { left: delta.x, top: delta.y, behavior };
    const dest = { x: clamp(before.x + delta.x, 0, before.max_x), y: clamp(before.y + delta.y, 0, before.max_y) };
    if (target) scrollBy(target, opts);
    else windowScrollBy(TOP_WINDOW, opts);
    if (behavior === 'smooth' && (dest.x !== before.x || dest.y !== before.y)) {
      await scrollSettled(target || TOP_WINDOW, () => {
        const p = scrollState(target);
        p.arrived = p.x === round(dest.x) && p.y === round(dest.y);
        return p;
      });
    }
    const out = scrollState(target);
    out.moved = out.x !== before.x || out.y !== before.y;
    return out;
  }

  // ----- seek: a list that draws only the rows in view -----

  const SEEK_WALK_MAX = 20000;  // elements looked at for boxes that scroll
  const SEEK_BOXES_MAX = 4;
  const SEEK_STEP_WAIT_MS = 150;  // for the rows a scroll makes the list draw

  /**
   * seek {text, timeout_ms}: looks for `text` in the lists that draw only what is in view
   * (react-window, TanStack Virtual, AG Grid's rows; scanner-protocol, as a person scrolls a long
   * list to a name): each such box is scrolled a box-height at a time from where it is down to its
   * end, then from its top back to where it was, until a row shows the text (its text or label);
   * that row is scrolled into view and {found: true, moved} returned. Not found, every box goes
   * back where it was: {found: false, boxes: N}.
   */
  async function cmdSeek(cmd) {
    const want = lc(collapse(str(param(cmd, 'text', ''))));
    if (!want) throw fail('SCRIPT_ERROR', 'seek needs "text"');
    const until = B.now() + mathMax(0, +param(cmd, 'timeout_ms', 3000) || 0);
    const boxes = partlyDrawnBoxes();
    let steps = 0;
    // The timers the page's scroll handlers start are followed (wait_timers after it): a list may
    // take no click for a moment after it scrolled (Vaadin's calendar ignores taps 300 ms).
    if (boxes.length) askTopRegistry('tarm', []);
    for (const box of boxes) {
      const start = scrollTop(box);
      const hit = await seekIn(box, want, start, until, () => steps++);
      if (hit) {
        // Centred: the action's own scroll into view then has nothing to move.
        scrollIntoView(hit, { block: 'center', inline: 'nearest', behavior: 'instant' });
        await settle();
        return { found: true, boxes: boxes.length, steps, moved: scrollTop(box) !== start };
      }
      scrollBy(box, { top: start - scrollTop(box), behavior: 'instant' });
      await settle();
    }
    return { found: false, boxes: boxes.length, steps, timed_out: B.now() >= until };
  }

  /** Scrolls `box` from `start` to its end, then from its top to `start`; the element showing `want`, or null. */
  async function seekIn(box, want, start, until, step) {
    let wrapped = start <= 0;
    for (;;) {
      const hit = showingText(box, want);
      if (hit) return hit;
      if (B.now() >= until) return null;
      const y = scrollTop(box);
      if (wrapped && start > 0 && y >= start) return null;  // came round to where it started
      step();
      await scrollAndDraw(box, drawnAhead(box));
      if (scrollTop(box) === y) {  // the end
        if (wrapped) return null;
        wrapped = true;
        await scrollAndDraw(box, -y);
      }
    }
  }

  /**
   * Scrolls `box` by `dy` and waits for the rows it draws there: the first change inside it that
   * leaves rows in view and one task more (a list may draw in pieces), else a frame after
   * SEEK_STEP_WAIT_MS. The browser
   * fires `scroll` at its next frame; the event is also fired at once, so that a list that draws
   * in its scroll handler (react-window, TanStack Virtual) does not wait a frame per step. Rows
   * drawn already over the whole box (a list that draws in clusters, Clusterize.js's 200 rows)
   * need no drawing: a frame, not SEEK_STEP_WAIT_MS.
   */
  function scrollAndDraw(box, dy) {
    return new B.Promise((resolve) => {
      let done = false;
      let timer = 0;
      const stop = () => {
        if (done) return false;
        done = true;
        moDisconnect(mo);
        B.clearTimeout(timer);
        return true;
      };
      // A change that leaves the box empty (a list that clears its rows on scroll and draws them
      // late) is not the drawing yet.
      const mo = new B.MutationObserver(() => { if (drawnReach(box) > 0 && stop()) B.setTimeout(resolve, 0); });
      moObserve(mo, box, { childList: true, subtree: true, characterData: true, attributes: true });
      scrollBy(box, { top: dy, behavior: 'instant' });
      // (The page's scroll event is the document's, and reaches the window.)
      if (isPageScroller(box)) fire(TOP_DOC, 'Event', 'scroll', { bubbles: true });
      else fire(box, 'Event', 'scroll', { bubbles: false });
      const shown = drawnReach(box) >= clientHeight(box);
      timer = B.setTimeout(() => { if (stop()) settle().then(resolve); }, shown ? 0 : SEEK_STEP_WAIT_MS);
    });
  }

  /** The element in `box` that shows `want` (lower-cased, collapsed): its text or label, or null. */
  function showingText(box, want) {
    // Rows out of a box's view are clipped, yet drawn; on the page, hidden text is not a row.
    const direct = elementsWithText(want, [box], true, !isPageScroller(box))[0];
    if (direct) return direct;
    // Drawn through slots or shadow roots (Vaadin's month scroller): the text's own element,
    // where the box shows it.
    if (!isPageScroller(box)) {
      let flat = null;
      eachFlatText(box, 5000, (t) => {
        if (flat || !contains_(lc(collapse(nodeValue(t))), want)) return;
        const el = parentElement(t);
        if (el) flat = el;
      });
      if (flat) return flat;
    }
    // The text split over several elements ("Rosa <b>Quinn</b>"): the innermost that holds it all.
    if (!contains_(lc(collapse(safeInnerText(box))), want)) return null;
    let el = box;
    for (;;) {
      const inner = find(children(el), (k) => contains_(lc(collapse(safeInnerText(k))), want));
      if (!inner) return el;
      el = inner;
    }
  }

  /**
   * Boxes that scroll over more than they draw: a box that scrolls, at least twice as tall inside
   * as it shows, whose drawn text spans less than half of that (the rows in view and a few more).
   * A long list drawn whole spans its height, and a scroll bar drawn as a box (AG Grid's) draws no
   * text: neither is one of them.
   */
  function partlyDrawnBoxes() {
    const out = [];
    let n = 0;
    const body = docBody(TOP_DOC);
    if (!body) return out;
    walkComposed(body, (el) => {
      if (++n > SEEK_WALK_MAX || out.length >= SEEK_BOXES_MAX) return false;
      const h = clientHeight(el);
      if (h < 40 || scrollHeight(el) < 2 * h || !scrollsItsContent(el) || !isVisible(el)) return true;
      const span = drawnSpan(el);
      if (span > 0 && span < 0.5 * scrollHeight(el)) push(out, el);
      return true;
    });
    const page = partlyDrawnPage();
    if (page && out.length < SEEK_BOXES_MAX) push(out, page);
    return out;
  }

  /**
   * The page's own scroller when the page is a long list drawn in part, scrolled with the window
   * (react-virtuoso's useWindowScroll, TanStack's window virtualizer): at least three screens tall,
   * and what it draws (its leaves: elements with none inside, and media, that have a size, over the
   * page's height) spans less than half of that: the rest is space kept for rows not drawn. A long
   * article, a gallery, a page of images draw over their whole height.
   */
  function partlyDrawnPage() {
    const root = docScrollingElement(TOP_DOC) || docElement(TOP_DOC);
    const body = docBody(TOP_DOC);
    const full = root ? scrollHeight(root) : 0;
    if (!body || full < 3 * viewportSize(TOP_DOC).height) return null;
    const y = scrollTop(root);
    let top = Infinity;
    let bottom = -Infinity;
    const walker = docCreateTreeWalker(TOP_DOC, body, 1 /* SHOW_ELEMENT */);
    let n = 0;
    for (let el = walker.nextNode(); el; el = walker.nextNode()) {
      // A page of this many elements draws what it holds (a list drawn in part holds few).
      if (++n > SEEK_WALK_MAX) return null;
      if (firstElementChild(el) && !MEDIA_TAGS[localName(el)]) continue;
      const r = getRect(el);
      // (Off the page's top: skip links and the like parked at -9999px.)
      if (!r.width || !r.height || r.bottom + y <= 0 || r.top + y >= full) continue;
      top = mathMin(top, r.top);
      bottom = mathMax(bottom, r.bottom);
    }
    return bottom > top && bottom - top < 0.5 * full ? root : null;
  }

  const MEDIA_TAGS = { img: 1, video: 1, canvas: 1, svg: 1, iframe: 1, picture: 1, object: 1, embed: 1 };

  /** Whether `box` is the page's own scroller (the window scrolls it). */
  function isPageScroller(box) {
    return box === (docScrollingElement(TOP_DOC) || docElement(TOP_DOC));
  }

  /** The top of what `box` shows, in the viewport's coordinates. */
  function boxTop(box) {
    return isPageScroller(box) ? 0 : getRect(box).top + clientTop(box);
  }

  /**
   * How far `box` may scroll down without passing a row it has not drawn: from its top to the
   * end of the rows it draws one after another (a list draws a few rows past its bottom, AG Grid
   * ten), at least a box-height and at most four. Every row drawn was looked at (seekIn reads
   * rows out of view too), so a step past the ones in view skips none and takes fewer scrolls.
   */
  function drawnAhead(box) {
    const h = clientHeight(box);
    return mathMin(4 * h, mathMax(h, drawnReach(box)));
  }

  /** Pixels from `box`'s top to the end of the rows it draws one after another from there. */
  function drawnReach(box) {
    const h = clientHeight(box);
    const top = boxTop(box);
    // Rows follow one another with gaps under half a box; a larger gap is where drawing stops.
    let reach = top;
    const ordered = sortBy(drawnTextRects(box), (r) => r.top);
    for (let i = 0; i < ordered.length && ordered[i].top <= reach + h / 2; i++) reach = mathMax(reach, ordered[i].bottom);
    return mathFloor(reach - top);
  }

  /** How far apart the first and last text `box` draws are, in pixels (0 when it draws none). */
  function drawnSpan(box) {
    let top = Infinity;
    let bottom = -Infinity;
    each(drawnTextRects(box), (r) => {
      top = mathMin(top, r.top);
      bottom = mathMax(bottom, r.bottom);
    });
    return bottom > top ? bottom - top : 0;
  }

  /** The boxes of the elements whose text `box` draws (the first 5,000 text nodes). */
  function drawnTextRects(box) {
    const out = [];
    eachFlatText(box, 5000, (t) => {
      if (!reTest(/\S/, nodeValue(t))) return;
      const el = parentElement(t);
      const r = el ? getRect(el) : null;
      if (r && r.height) push(out, r);
    });
    return out;
  }

  /**
   * Calls visit(textNode) for the first `max` text nodes `box` draws, in the flat tree: through
   * shadow roots, and through slots to what they show (Vaadin's infinite scroller: its box in a
   * shadow root holds slots, the months it draws are the host's children, each with a shadow of its
   * own). Returns the element count walked, bounded too.
   */
  function eachFlatText(box, max, visit) {
    const stack = [box];
    let texts = 0;
    let walked = 0;
    while (stack.length && texts < max && walked < 4 * SEEK_WALK_MAX) {
      const n = stack.pop();
      walked++;
      if (nodeType(n) === 3) {
        texts++;
        visit(n);
        continue;
      }
      if (nodeType(n) !== ELEMENT_NODE && !isShadowRoot(n)) continue;
      const sr = nodeType(n) === ELEMENT_NODE ? shadowRoot(n) : null;
      let kids = nodeType(n) === ELEMENT_NODE && localName(n) === 'slot' ? assignedTo(n) : [];
      if (!kids.length) {
        kids = [];
        for (let c = firstChild(sr || n); c; c = nextSibling(c)) push(kids, c);
      }
      for (let i = kids.length - 1; i >= 0; i--) push(stack, kids[i]);
    }
    return walked;
  }

  /** Pixels to scroll: `amount`, or 80% of the viewport (or container) for "page"/default. */
  function scrollDelta(direction, amount, target, pos) {
    const vp = target ? { width: clientWidth(target), height: clientHeight(target) } : viewportSize(TOP_DOC);
    const horizontal = direction === 'left' || direction === 'right';
    let px = amount === null || amount === 'page' ? 0.8 * (horizontal ? vp.width : vp.height) : +amount;
    if (!numIsFinite(px)) throw fail('SCRIPT_ERROR', 'amount must be a number of pixels or "page"');
    px = round(px);
    switch (direction) {
      case 'up': return { x: 0, y: -px };
      case 'down': return { x: 0, y: px };
      case 'left': return { x: -px, y: 0 };
      case 'right': return { x: px, y: 0 };
      case 'top': return { x: 0, y: -pos.y };
      default: return { x: 0, y: pos.max_y - pos.y };
    }
  }

  /**
   * Waits until a smooth scroll of `target` (window or element) arrives: a `scroll` event at the
   * destination, or a `scrollend` once it has moved and then holds for a frame (a stale scrollend
   * of an earlier scroll is ignored), or the time limit.
   */
  function scrollSettled(target, position) {
    return new B.Promise((resolve) => {
      const start = position();
      let moved = false;
      let finished = false;
      let timer = 0;
      const done = () => {
        if (finished) return;
        finished = true;
        removeListener(target, 'scrollend', onEnd);
        removeListener(target, 'scroll', onScroll);
        B.clearTimeout(timer);
        resolve();
      };
      const onScroll = () => {
        const p = position();
        moved = moved || p.x !== start.x || p.y !== start.y;
        if (p.arrived) done();
      };
      const onEnd = () => {
        if (!moved) return;
        const p = position();
        B.requestAnimationFrame(() => {
          const q = position();
          if (q.x === p.x && q.y === p.y) done();
        });
      };
      addListener(target, 'scrollend', onEnd);
      addListener(target, 'scroll', onScroll);
      timer = B.setTimeout(done, SMOOTH_SCROLL_LIMIT_MS);
    });
  }

  // ----- reveal: a carousel that shows some of its slides -----

  /**
   * reveal {text, by, hovered}: `text` where a person does not see it yet, and the control they
   * press to bring it in (scanner README): on a slide a carousel does not show (clipped by its
   * viewport as Swiper, Splide, Glide and Embla move their slides, or display:none as
   * Bootstrap's), its control that says next or previous, or else its dot one step on (slideWay):
   * {control, toward: 'next'|'previous', away: slides from the ones shown to it, label for a dot};
   * or, where its arrows show only under the pointer, {hover: the box to point at, toward, away}
   * unless `hovered`; in a closed section (closedSectionOf), what opens it: {control, toward:
   * 'open', away: sections closed around it}; for the nearest. {shown: true} when the text is in
   * view already; {} when nothing holds it so. A carousel here: slides of one tag side by side in
   * one box, some shown; no field on any slide (a wizard's steps are no carousel); a control beside
   * the slides. `by`: only a closed section whose opener's name begins so ("Take the quiz" near
   * "Week 3", while Week 1's quiz shows), and the text shown elsewhere does not count.
   */
  function cmdReveal(cmd) {
    const want = lc(collapse(str(param(cmd, 'text', ''))));
    if (!want) throw fail('SCRIPT_ERROR', 'reveal needs "text"');
    const by = lc(collapse(str(param(cmd, 'by', ''))));
    const hovered = param(cmd, 'hovered', false) === true;
    const cache = newVisibilityCache();
    const found = elementsWithText(want, deepRoots(TOP_DOC), false, true);
    let best = null;
    for (let i = 0; i < found.length; i++) {
      const el = found[i];
      const seen = visibilityOf(el, cache);
      if (seen.visible) {
        if (by) continue;
        return { shown: true };
      }
      if (tagOf(el) === 'script' || tagOf(el) === 'style' || tagOf(el) === 'template') continue;
      if (by) {
        const way = closedSectionOf(el, cache, by);
        if (way && (!best || way.away < best.away)) best = way;
        continue;
      }
      const slide = hiddenSlideOf(el, cache);
      if (slide && best && slide.away >= best.away) continue;
      const way = slide ? slideWay(slide, el, cache, hovered) : closedSectionOf(el, cache);
      if (way && (!best || way.away < best.away)) best = way;
    }
    if (!best) return {};
    const json = (node) => elementJson(register(node).item, true, true, deepActiveElement(TOP_DOC));
    if (best.hover) return { hover: json(best.hover), toward: best.toward, away: best.away };
    if (best.swipe) {
      const gesture = swipeGesture(best.swipe);
      return gesture ? { swipe: gesture, toward: best.toward, away: best.away } : {};
    }
    const out = { control: json(best.control), toward: best.toward, away: best.away };
    if (best.label) out.label = best.label;
    return out;
  }

  /**
   * The way to `s`'s slide (`el` on it), in the innermost of the boxes around its track that has
   * one (another carousel's arrows further out are not this one's): its arrow that shows
   * ({control}); where the arrows show only while the pointer is over the carousel (UIkit's
   * uk-hidden-hover, an opacity:0 until :hover), the box to point at first ({hover}), unless that
   * was done (`hovered`); else its dot one step on ({control, label}). A closed section around `el`
   * comes before dots (a tab that names the slide is pressed at once) and where there is neither.
   * Looked for once per track and way in a reveal.
   */
  function slideWay(s, el, cache, hovered) {
    if (!cache.ways) cache.ways = new B.Map();
    let known = mapGet(cache.ways, s.track);
    if (!known) mapSet(cache.ways, s.track, known = {});
    if (!hasOwn(known, s.toward)) {
      let way = null;
      eachBoxBeside(s.track, (box) => {
        const pressables = pressablesBeside(s.track, box);
        const control = find(pressables, (item) => movesToward(item.el, item.name, s.toward) && isVisible(item.el));
        if (control) way = { control: control.el };
        else if (!hovered && hoverShowsControl(s, box, cache)) way = { hover: box };
        else {
          const dot = slideDot(s, pressables, cache);
          if (dot) way = { control: dot.el, label: dot.label, dot: true };
        }
        return way;
      });
      known[s.toward] = way;
    }
    const way = known[s.toward];
    if (!way || way.dot) {
      const section = closedSectionOf(el, cache);
      if (section) return section;
    }
    if (way) return { away: s.away, toward: s.toward, control: way.control, hover: way.hover, label: way.label };
    // Neither arrows nor dots (Keen-Slider's, Embla's basic setup, a Swiper without its modules):
    // a person drags the row, where its slides lie side by side and it says it takes drags.
    return s.axis && takesDrags(s.track) ? { away: s.away, toward: s.toward, swipe: s } : null;
  }

  /**
   * Whether the carousel of `track` says a drag moves it, as the carousel libraries' own CSS says
   * so, on the track, the boxes from it up to the one that clips its slides and two more (the
   * carousel's own root), or its first slide: touch-action that leaves the browser one axis and
   * keeps the other (pan-y: Swiper, Keen-Slider, Embla, Flickity, Slick, UIkit), a grab cursor
   * (Glide), no text selection (Splide's track, Owl's slides). A cursor or a selection rule counts
   * only where that box sets it, not where it inherits it (an app that turns selection off
   * everywhere is no carousel). A row clipped in a box says none of these: a drag there would
   * select text, or move a card of a sortable list.
   */
  function takesDrags(track) {
    const nodes = carouselBoxes(track);
    const kid = firstElementChild(track);
    if (kid) push(nodes, kid);
    for (let i = 0; i < nodes.length; i++) {
      const n = nodes[i];
      const st = styleOf(n);
      if (!st) continue;
      const touch = str(st.touchAction);
      if (n !== kid && reTest(/pan-y/, touch) !== reTest(/pan-x/, touch)) return true;
      if (reTest(/grab/, ownStyle(n, cursorOf)) || ownStyle(n, selectionOf) === 'none') return true;
    }
    return false;
  }

  /**
   * `read(style)` of `el` where `el` sets it itself, not where it inherits it (its parent's is
   * another): '' else. A cursor or a user-select said by a box far around counts for none.
   */
  function ownStyle(el, read) {
    const st = styleOf(el);
    if (!st) return '';
    const parent = composedParent(el);
    const up = parent && nodeType(parent) === 1 ? styleOf(parent) : null;
    const value = read(st);
    return up && read(up) === value ? '' : value;
  }
  function cursorOf(st) { return str(st.cursor); }
  /** user-select (WebKit's prefixed one where it has no other). */
  function selectionOf(st) { return str(st.userSelect) || str(st.webkitUserSelect); }

  /** `track`, the boxes around it up to the one that clips its slides, and two more: the carousel's. */
  function carouselBoxes(track) {
    const body = docBody(ownerDocument(track));
    const out = [];
    let past = -1;
    for (let n = track, d = 0; n && n !== body && d < 8 && past < 2; n = parentElement(n), d++) {
      push(out, n);
      if (past >= 0) past++;
      else if (clipsItsContent(n)) past = 0;
    }
    return out;
  }

  /** Whether `el` cuts what it holds to its box. */
  function clipsItsContent(el) {
    const st = styleOf(el);
    return !!st && !!clipsOverflow(st);
  }

  /**
   * The closed section around `el` and what opens it, as a person opens it: a tab not selected
   * whose panel holds it, a button that says it is collapsed (aria-expanded=false) and controls it
   * or comes right before it (an accordion's header, a collapse's toggle, a dropdown's toggle),
   * the summary of a closed <details>. The innermost whose opener shows (a section closed inside
   * another opens once that one is open): {control, toward: 'open', away: closed sections around
   * `el`}, or null. `by` (lower-cased): only a section whose opener's name begins with it ("Week 3").
   */
  function closedSectionOf(el, cache, by) {
    let control = null;
    let closed = 0;
    const body = docBody(ownerDocument(el));
    for (let box = composedParent(el); box && box !== body; box = composedParent(box)) {
      // (A closed <details> shows its summary: the box is seen, what it holds is not.)
      if (tagOf(box) !== 'details' && visibilityOf(box, cache).visible) continue;
      const opener = openerOf(box, cache);
      if (!opener) continue;
      closed++;
      if (!control && visibilityOf(opener, cache).visible && !isDisabled(opener) &&
          (!by || strIndexOf(lc(collapse(accessibleName(opener, ''))), by) === 0)) {
        control = opener;
      }
    }
    return control ? { control, toward: 'open', away: closed } : null;
  }

  /** A link to another page, or a button that submits its form: pressing it does more than show. */
  function leavesOrSubmits(c) {
    const tag = tagOf(c);
    if (tag === 'a') {
      // (An empty href or a script's is this page: UIkit's <a href uk-slidenav-next>.)
      const href = collapse(attr(c, 'href'));
      return hasAttribute(c, 'href') && href !== '' && strSlice(href, 0, 1) !== '#' && !reTest(/^javascript:/i, href);
    }
    if (tag !== 'button' && tag !== 'input') return false;
    const type = lc(attr(c, 'type') || (tag === 'button' ? 'submit' : 'text'));
    if (type !== 'submit' && type !== 'image') return false;
    for (let n = parentElement(c); n; n = parentElement(n)) if (tagOf(n) === 'form') return true;
    return hasAttribute(c, 'form');
  }

  /** What opens the closed `box`: its tab, its collapsed toggle, its <details>' summary; or null. */
  function openerOf(box, cache) {
    if (tagOf(box) === 'details') return hasAttribute(box, 'open') ? null : firstOf(box, ':scope > summary');
    const closedToggle = (c) => c && (attr(c, 'aria-expanded') === 'false' ||
        (attr(c, 'role') === 'tab' && attr(c, 'aria-selected') !== 'true')) && !leavesOrSubmits(c);
    const id = elId(box);
    if (id) {
      // Who controls what, read once per root and reveal: id -> the elements naming it.
      const root = getRootNode(box);
      if (!cache.controllers) cache.controllers = new B.Map();
      let byId = mapGet(cache.controllers, root);
      if (!byId) {
        byId = new B.Map();
        each(queryAll(root, '[aria-controls]'), (c) => each(strSplit(collapse(attr(c, 'aria-controls')), ' '), (ref) => {
          if (!mapHas(byId, ref)) mapSet(byId, ref, []);
          push(mapGet(byId, ref), c);
        }));
        mapSet(cache.controllers, root, byId);
      }
      const c = find(mapHas(byId, id) ? mapGet(byId, id) : [], closedToggle);
      if (c) return c;
    }
    const before = previousElementSibling(box);
    return before && !hasAttribute(before, 'aria-controls') && closedToggle(before) ? before : null;
  }

  /** The slide around `el` that its carousel hides while others of its row show: {slide, track, toward, away}, or null. */
  function hiddenSlideOf(el, cache) {
    let slide = el;
    for (let depth = 0; depth < 10; depth++) {
      const track = parentElement(slide);
      if (!track || track === docBody(ownerDocument(el))) return null;
      const kids = children(track);
      if (kids.length >= 2 && !slideShows(slide, cache)) {
        const at = indexOf(kids, slide);
        let first = -1;
        let last = -1;
        // (Of one tag with the slide; the others: null.)
        const shows = map(kids, (k) => tagOf(k) === tagOf(slide) ? slideShows(k, cache) : null);
        for (let i = 0; i < kids.length; i++) {
          if (shows[i]) {
            if (first < 0) first = i;
            last = i;
          }
        }
        if (first >= 0) {
          if (firstOf(track, SLIDE_FIELDS)) return null;
          const r = getRect(slide);
          const placed = r.width > 0 && r.height > 0 ? placedSlide(slide, r, track, kids, shows) : null;
          if (placed) return placed;
          // By their order (display:none as Bootstrap's; stacked as a fading carousel's). Hidden
          // between shown ones: filtered out of a grid, not a slide out of view.
          if (at >= first && at <= last) return null;
          return at > last ? { slide, track, toward: 'next', away: at - last }
              : { slide, track, toward: 'previous', away: first - at };
        }
      }
      slide = track;
    }
    return null;
  }
  /**
   * `slide` (laid out, not shown; its rect `r`; `shows`: which `kids` show, null for another tag) by where it lies beside the slides that show, along the row they
   * form (across, or down for a vertical carousel), not by its place among them: a loop moves its
   * slides round (UIkit's slider puts the first ones after the last); right to left where the
   * track runs so (dir=rtl, row-reverse). `away`: the slides from the shown ones to it, it
   * included. Null when it lies among the shown ones (a grid's, or stacked: a fading carousel's).
   */
  function placedSlide(slide, r, track, kids, shows) {
    const shown = { left: 1 / 0, right: -1 / 0, top: 1 / 0, bottom: -1 / 0 };
    const mids = [];
    for (let i = 0; i < kids.length; i++) {
      if (shows[i] === null) continue;
      const kr = getRect(kids[i]);
      if (shows[i]) {
        shown.left = mathMin(shown.left, kr.left);
        shown.right = mathMax(shown.right, kr.left + kr.width);
        shown.top = mathMin(shown.top, kr.top);
        shown.bottom = mathMax(shown.bottom, kr.top + kr.height);
      } else if (kr.width > 0 && kr.height > 0) {
        push(mids, { x: kr.left + kr.width / 2, y: kr.top + kr.height / 2 });
      }
    }
    const at = { x: r.left + r.width / 2, y: r.top + r.height / 2 };
    const across = at.x >= shown.right || at.x <= shown.left;
    if (!across && at.y < shown.bottom && at.y > shown.top) return null;
    const axis = across ? 'x' : 'y';
    const low = across ? shown.left : shown.top;
    const high = across ? shown.right : shown.bottom;
    const st = styleOf(track);
    const reversed = across && !!st && (st.direction === 'rtl') !== (strIndexOf(str(st.flexDirection), 'reverse') >= 0);
    const ahead = at[axis] >= high;
    const toward = ahead !== reversed ? 'next' : 'previous';
    const away = filter(mids, (m) => ahead ? m[axis] >= high && m[axis] <= at[axis]
        : m[axis] <= low && m[axis] >= at[axis]).length;
    return { slide, track, toward, away: mathMax(1, away), axis, ahead };
  }
  /**
   * Half of `k` or more shows, or it fills half of the box that clips it (a slide taller than its
   * carousel): a slide whose edge peeks past its carousel's (a sub-pixel of UIkit's) is not one shown.
   */
  function slideShows(k, cache) {
    const seen = visibilityOf(k, cache);
    if (!seen.visible) return false;
    const clip = ancestorFacts(composedParent(k), cache).clip;
    const r = seen.rect;
    if (clip === INFINITE_BOX || seen.view === INFINITE_BOX || !r || r.width <= 0 || r.height <= 0) return true;
    const seenArea = boxArea(intersect(clip, boxOf(r)));
    return seenArea >= r.width * r.height / 2 || seenArea >= boxArea(clip) / 2;
  }
  /**
   * The drag that moves `s.track` one slide toward `s.slide`, as a person drags a carousel that has
   * no arrows or dots: {x, y, dx, dy} in the viewport, the track scrolled into view first. The
   * drag is one slide's pitch (the least distance between neighbouring slides), or 80% of what the
   * carousel shows where a slide is wider, and starts where the carousel shows no control, link or
   * picture (a press on a link starts the browser's own drag of it). Null when no point of the
   * track can be pressed (something covers it).
   */
  function swipeGesture(s) {
    const track = s.track;
    // The box that clips the slides is scrolled into view, not the track: a track wider than its
    // box would have that box scrolled along, behind the carousel's back.
    const boxes = carouselBoxes(track);
    scrollIntoView(find(boxes, clipsItsContent) || track, { block: 'nearest', inline: 'nearest', behavior: 'instant' });
    const cache = newVisibilityCache();
    const vp = viewportSize(TOP_DOC);
    const across = s.axis === 'x';
    // What the carousel shows: its clip, on the screen; across the row, the track's own height
    // (along it the track moves: a row moved on by a transform is mostly out of its clip).
    const own = boxOf(getRect(track));
    const clip = intersect(ancestorFacts(track, cache).clip, { left: 0, top: 0, right: vp.width, bottom: vp.height });
    const region = across ? { left: clip.left, right: clip.right, top: mathMax(clip.top, own.top), bottom: mathMin(clip.bottom, own.bottom) }
        : { left: mathMax(clip.left, own.left), right: mathMin(clip.right, own.right), top: clip.top, bottom: clip.bottom };
    if (isEmptyBox(region)) return null;
    const low = across ? region.left : region.top;
    const high = across ? region.right : region.bottom;
    let centres = [];
    each(children(track), (k) => {
      const r = getRect(k);
      if (r.width > 0 && r.height > 0) push(centres, across ? r.left + r.width / 2 : r.top + r.height / 2);
    });
    centres = sortBy(centres, (c) => c);
    let pitch = 1 / 0;
    for (let i = 1; i < centres.length; i++) if (centres[i] - centres[i - 1] > 1) pitch = mathMin(pitch, centres[i] - centres[i - 1]);
    const extent = high - low;
    const margin = mathMin(24, extent / 10);
    // One slide a drag, as far as the slides lie apart, or 80% of a slide wider than the carousel
    // shows (past half: the next one). (Embla moves one slide a drag: a longer drag, held,
    // brings it back where it was.)
    const d = mathMin(pitch, 0.8 * extent, extent - 2 * margin);
    if (!(d > 8)) return null;
    // The slide ahead comes in as the row moves back: the drag goes from the far edge back.
    const sign = s.ahead ? -1 : 1;
    const crossLow = across ? region.top : region.left;
    const crossSpan = (across ? region.bottom : region.right) - crossLow;
    const heights = [0.5, 0.3, 0.7, 0.15, 0.85];
    for (let i = 0; i < heights.length; i++) {
      const f = heights[i];
      for (let shift = 0; shift <= extent - d - 2 * margin; shift += mathMax(8, (extent - d) / 6)) {
        const along = sign < 0 ? high - margin - shift : low + margin + shift;
        const cross = crossLow + crossSpan * f;
        const x = across ? along : cross;
        const y = across ? cross : along;
        const hit = deepElementFromPoint(TOP_DOC, x, y);
        if (!hit || !composedContains(track, hit) || pressedForItself(hit, track)) continue;
        return { x: round(x), y: round(y), dx: across ? round(sign * d) : 0, dy: across ? 0 : round(sign * d) };
      }
    }
    // Every point is on a link or a control (slides that are one link each): the press would
    // follow it where the carousel does not stop the click after a drag. Not dragged.
    return null;
  }

  /**
   * Whether a press on `el` (inside `track`) is one for `el` or a thing around it: a control, a
   * link, a picture, a field, a box that sets a pointer cursor of its own (a card that listens
   * for clicks); above the track, a link or a button around the whole carousel.
   */
  function pressedForItself(el, track) {
    let inside = true;
    for (let n = el; n && nodeType(n) === 1; n = composedParent(n)) {
      if (n === track) inside = false;
      const tag = localName(n);
      if (tag === 'a' || tag === 'button' || INTERACTIVE_ROLES[ariaRole(n)]) return true;
      if (!inside) continue;
      if (SWIPE_AVOIDS[tag] || attr(n, 'draggable') === 'true' || hasAttribute(n, 'onclick') || hasAttribute(n, 'contenteditable') ||
          ownStyle(n, cursorOf) === 'pointer') {
        return true;
      }
    }
    return false;
  }
  const SWIPE_AVOIDS = { input: 1, select: 1, textarea: 1, label: 1, summary: 1, img: 1, video: 1, audio: 1, iframe: 1, canvas: 1 };

  const SLIDE_FIELDS = 'input:not([type=hidden]):not([type=button]):not([type=submit]):not([type=reset]), select, textarea';

  // Whole words ("back", not "background"; "prev", "previous"), or an arrow.
  const NEXT_WORDS = /(^|[^a-z])(next|forward|right|suivant|weiter|siguiente|avanti|volgende|pr[oó]xim[oa]|seguinte|nast[eę]pn[ya])(?![a-z])|[›»→❯⟩▶▸>]/i;
  const PREVIOUS_WORDS = /(^|[^a-z])(prev|previous|back|backward|left|pr[eé]c[eé]dent|zur[uü]ck|anterior|indietro|vorige|poprzedni[a]?)(?![a-z])|[‹«←❮⟨◀◂<]/i;

  /** Calls fn with each of the four boxes around `track` below <body>, innermost first, until it returns truthy. */
  function eachBoxBeside(track, fn) {
    const body = docBody(ownerDocument(track));
    // (Not the page's body: it holds every other carousel's controls too.)
    let box = parentElement(track);
    for (let depth = 0; box && box !== body && depth < 4; depth++, box = parentElement(box)) {
      if (fn(box)) return;
    }
  }

  /** The scan's live clickable items in `box` and not in `track`. */
  function pressablesBeside(track, box) {
    return filter(state.items, (item) => item && item.el && isClickable(item) && item.interactive !== false &&
        composedContains(box, item.el) && !composedContains(track, item.el) && isLive(item));
  }

  /** `el` (named `name`) says it moves its carousel `toward` next or previous, not both ways, and may be pressed. */
  function movesToward(el, name, toward) {
    const words = toward === 'next' ? NEXT_WORDS : PREVIOUS_WORDS;
    const other = toward === 'next' ? PREVIOUS_WORDS : NEXT_WORDS;
    const signs = name + ' ' + attributeSigns(el, true);
    return reTest(words, signs) && !reTest(other, signs) && !isDisabled(el) && !leavesOrSubmits(el);
  }

  /** What `el`'s class, id, aria-label, data attributes (and `withTitle` its title) say, one string. */
  function attributeSigns(el, withTitle) {
    const t = attributeTable(el);
    let signs = '';
    for (const k in t) {
      if (k === 'class' || k === 'id' || k === 'aria-label' || (withTitle && k === 'title') || strSlice(k, 0, 5) === 'data-') {
        signs += ' ' + t[k];
      }
    }
    return signs;
  }

  /**
   * Whether pointing at `box` (around `s.track`) may show its arrow toward `s.toward`: the arrow is
   * there, hidden by its opacity, visibility or size (not clipped away or off the page), and not
   * display:none up to the box (Owl's arrows when nav is off are); the box shows.
   */
  function hoverShowsControl(s, box, cache) {
    if (!visibilityOf(box, cache).visible) return false;
    const arrows = queryAll(box, 'a, button, [role=button]');
    for (let i = 0; i < arrows.length; i++) {
      const el = arrows[i];
      if (composedContains(s.track, el)) continue;
      const seen = visibilityOf(el, cache);
      if (seen.visible || !reTest(/opacity|visibility|zero size/, seen.reason) || !movesToward(el, accessibleName(el, ''), s.toward)) continue;
      let shown = true;
      for (let n = el; n && n !== box && shown; n = parentElement(n)) {
        const st = styleOf(n);
        shown = !!st && st.display !== 'none';
      }
      if (shown) return true;
    }
    return false;
  }

  /**
   * The dot beside `s.track` one step toward `s.toward` from the dot that says it is current: a row
   * of two or more dots of one tag, no more than the slides, holding nothing else shown (a dot may sit
   * alone in its <li>: Slick's, UIkit's), that say they are dots (saysDot: not filter chips), one
   * of them current by aria-current, else an active/current/selected class (owl-dot active,
   * is-selected, swiper-pagination-bullet-active), else aria-selected or aria-pressed; from the
   * last round to the first (a loop). Dots may have no name (Owl's): {el, label: 'dot 2 of 3'}, or
   * null when there is none.
   */
  function slideDot(s, pressables, cache) {
    const slides = filter(children(s.track), (k) => tagOf(k) === tagOf(s.slide)).length;
    const rows = [];
    const rowOf = new B.Map();
    each(pressables, (item) => {
      let unit = item.el;
      const up = parentElement(unit);
      if (up && tagOf(up) === 'li' && children(up).length === 1) unit = up;
      const row = parentElement(unit);
      let r = mapGet(rowOf, row);
      if (!r) {
        r = { row, dots: [] };
        mapSet(rowOf, row, r);
        push(rows, r);
      }
      push(r.dots, { unit, el: item.el, name: item.name });
    });
    for (let i = 0; i < rows.length; i++) {
      const dots = rows[i].dots;
      const n = dots.length;
      // (tiny-slider keeps a dot a slide, the ones past the pages display:none.)
      if (n < 2 || n > slides || filter(children(rows[i].row), (k) => visibilityOf(k, cache).visible).length !== n ||
          find(dots, (d) => tagOf(d.unit) !== tagOf(dots[0].unit)) || !find(dots, (d) => saysDot(d, rows[i].row))) continue;
      // (The first sign that picks one dot: Slick moves its active class, not aria-selected.)
      let current = [];
      for (let sign = 0; sign < 3 && current.length !== 1; sign++) {
        current = filter(dots, (d) => isCurrentDot(d.unit, sign) || isCurrentDot(d.el, sign));
      }
      if (current.length !== 1) continue;
      // (Round the ends: a loop puts its last slide before the first.)
      const at = (indexOf(dots, current[0]) + (s.toward === 'next' ? 1 : n - 1)) % n;
      if (!isDisabled(dots[at].el) && !leavesOrSubmits(dots[at].el)) return { el: dots[at].el, label: 'dot ' + (at + 1) + ' of ' + n };
    }
    return null;
  }

  // A dot's own words: a dot, bullet, page or slide, a pager or an indicator ("Go to slide 3",
  // owl-dot, glide__bullet, "Carousel Page 2"); or a number ("2", "2 / 4"); or no name at all.
  const DOT_WORDS = /(^|[^a-z])(dots?|bullets?|pagination|pager|indicators?|pages?|slides?|go ?to|carousel)(?![a-z])/i;
  const DOT_NUMBER = /^\s*\d+(\s*(\/|of)\s*\d+)?\s*$/;
  // A class that says current ("active", "is-selected", "swiper-pagination-bullet-active"), not its opposite ("inactive").
  const CURRENT_CLASS = /(^|[-_])(active|current|selected)$/i;
  const NOT_CURRENT_CLASS = /(^|[-_])(not|in|un)[-_]?(active|current|selected)$/i;

  /** Dot `d` (or its row) says it is a carousel's dot, not a filter chip or a tab named by its content. */
  function saysDot(d, row) {
    if (!collapse(d.name) || reTest(DOT_NUMBER, d.name)) return true;
    return reTest(DOT_WORDS, d.name + ' ' + attr(d.unit, 'class') + ' ' + attr(row, 'class') + ' ' + attr(row, 'aria-label') +
        attributeSigns(d.el, false));
  }

  /** `el` says it is the current dot by `sign`: 0 aria-current, 1 an active/current/selected class, 2 aria-selected or aria-pressed. */
  function isCurrentDot(el, sign) {
    if (sign === 0) return !!attr(el, 'aria-current') && attr(el, 'aria-current') !== 'false';
    if (sign === 2) return attr(el, 'aria-selected') === 'true' || attr(el, 'aria-pressed') === 'true';
    return !!find(strSplit(collapse(attr(el, 'class')), ' '), (c) => reTest(CURRENT_CLASS, c) && !reTest(NOT_CURRENT_CLASS, c));
  }

  // ----- submit -----

  async function cmdSubmit(cmd) {
    let form;
    let origin;
    if (hasOwn(cmd, 'id') && cmd.id !== null && cmd.id !== undefined) {
      const item = lookup(cmd.id);
      form = item.tag === 'form' ? item.el : formOf(item.el);
      origin = 'element ' + itemLabel(item) + ' is not inside a <form>; click its submit button instead';
    } else {
      const active = deepActiveElement(TOP_DOC);
      form = active ? formOf(active) : null;
      origin = 'the focused element (' + describe(active) + ') is not inside a <form>; pass an id or click the submit button';
    }
    if (!form) throw fail('ELEMENT_NOT_FOUND', 'no form to submit: ' + origin);
    const selector = fullSelector(form, frameChainOf(form));
    const invalid = invalidFields(form);
    if (invalid.length) {
      return { action: 'submit', submitted: false, form: selector, invalid };
    }
    const watch = startWatch(null);
    if (formRequestSubmit) formRequestSubmit(form);
    else if (fire(form, 'Event', 'submit', { bubbles: true, cancelable: true })) formSubmit(form);
    if (!watch.unloading()) await settle();
    const result = watch.stop();
    return { action: 'submit', submitted: true, form: selector, navigated: result.navigated,
      changes: result.changes };
  }

  /** Fields that fail constraint validation (the browser would block the submit). */
  function invalidFields(form) {
    if (formCheckValidity(form)) return [];
    const out = [];
    each(form.elements, (el) => {
      let valid = true;
      try {
        valid = el.checkValidity ? el.checkValidity() : true;
      } catch (e) {
        valid = true;
      }
      if (valid) return;
      const id = wmGet(state.byElement, el);
      const entry = { selector: fullSelector(el, frameChainOf(el)), message: str(el.validationMessage) };
      if (id) entry.id = id;
      push(out, entry);
    });
    return out;
  }

  // ----- queries -----

  function cmdGetValue(cmd) {
    const item = requireId(cmd, 'get_value');
    const el = item.el;
    const checked = checkedState(el, item.tag, item.type);
    let value;
    let length = -1;
    if (checked !== null) value = checked;
    // An option that says whether it is chosen: that is its value (check/uncheck on it).
    else if (item.type === 'option' && hasAttribute(el, 'aria-selected')) value = attr(el, 'aria-selected') === 'true';
    else if (item.tag === 'select' && selectMultiple(el)) value = selectedValues(el);
    else if (item.segments) value = maskIfPassword(el, segmentsValue(item));
    else {
      const raw = itemRawValue(item);
      value = raw === null ? collapse(safeInnerText(el)) : maskIfPassword(el, raw);
      // A masked value still says how many characters it holds (the page shows as many dots).
      if (raw !== null && value !== raw) length = raw.length;
    }
    return length >= 0 ? { id: item.id, value, length } : { id: item.id, value };
  }

  /**
   * key_listeners: does anything on the path of the element the keys go to (the focused one; a
   * widget's own input when clicking the widget focused that) listen to keys or input (the
   * registry's answer; the body, no field, is always yes)? `keys` is null where no registry
   * answers (no channel, a field in a shadow tree): unknown, which an engine treats as yes.
   */
  function cmdKeyListeners(cmd) {
    const item = requireId(cmd, 'key_listeners');
    const ch = channelName();
    const doc = ownerDocument(item.el);
    let keys = null;
    const focused = doc ? deepActiveElement(doc) : null;
    // Whether text typed now lands in a field at all (a click on a label without a control, on a
    // slider's handle, focuses none).
    // (Unknown, null, where the focus went into a frame the scanner cannot see into: a card
    // field's cross-origin frame.)
    const frameFocus = !!focused && (tagOf(focused) === 'iframe' || tagOf(focused) === 'frame');
    const editable = frameFocus ? null : !!focused && takesText(focused);
    // Whether the focus is the element's own (a popup that opened over it took the click).
    const on_target = frameFocus ? null : !!focused && (composedContains(item.el, focused) ||
        find(labelsOf(item.el), (l) => composedContains(l, focused)) !== null);
    if (!ch || !doc || !focused || ownerDocument(focused) !== doc) return { id: item.id, keys, editable, on_target };
    const answer = askRegistryFor(doc, focused, 'kq', ['keys', 'nokeys']);
    if (answer) keys = answer === 'keys';
    return { id: item.id, keys, editable, on_target };
  }

  /**
   * file_input_for: the file input a target stands for, as a person's click on it would open its
   * chooser: the target itself; one inside it (FilePond, react-dropzone); the control of a label;
   * one its aria-controls names; the one file input of its field's box; else the one file input
   * of its document, hidden anywhere (Dropzone adds it to <body>, opened by the area's click).
   * Registered in the map, hidden or not (setting files needs no visible input). {id: 0}: none.
   */
  function cmdFileInputFor(cmd) {
    const item = requireId(cmd, 'file_input_for');
    const isFile = (n) => !!n && tagOf(n) === 'input' && lc(attr(n, 'type')) === 'file';
    const el = item.el;
    const only = (root) => {
      let list = [];
      try {
        list = queryAll(root, 'input[type=file]');
      } catch (e) {
        list = [];
      }
      return list.length === 1 ? list[0] : null;
    };
    // Another field (a text field, a select) opens no chooser.
    const tag = tagOf(el);
    if (!isFile(el) && (tag === 'input' || tag === 'select' || tag === 'textarea')) return { id: 0 };
    let found = isFile(el) ? el : null;
    if (!found && tag === 'label') found = isFile(labelControl(el)) ? labelControl(el) : null;
    if (!found) found = only(el);
    if (!found && attr(el, 'aria-controls')) {
      const c = byIdInRoot(el, strTrim(attr(el, 'aria-controls')));
      found = isFile(c) ? c : null;
    }
    for (let up = parentElement(el), depth = 0; !found && up && depth < 4; up = parentElement(up), depth++) {
      if (tagOf(up) === 'body' || tagOf(up) === 'form') break;
      found = only(up);
    }
    if (!found) found = only(ownerDocument(el));
    if (!found) return { id: 0 };
    return { id: register(found).item.id };
  }

  /** True when keys typed into `el` (focused) enter text: a text field, or an editing host. */
  function takesText(el) {
    // What `type` types into (editKind) but an input whose value is set as a whole (a range, a
    // colour); or an ARIA text role.
    const kind = editKind(el);
    if (kind) return kind !== 'input' || !NON_TEXT_INPUTS[lc(attr(el, 'type'))];
    const role = ariaRole(el);
    return role === 'textbox' || role === 'searchbox' || role === 'combobox' || role === 'spinbutton';
  }

  function firstBySelectorOrId(cmd, name) {
    if (hasOwn(cmd, 'id') && cmd.id !== null && cmd.id !== undefined && !hasOwn(cmd, 'selector')) {
      return lookup(cmd.id).el;
    }
    const selector = param(cmd, 'selector', null);
    if (selector === null) throw fail('SELECTOR_INVALID', name + ' needs "selector" (CSS, "body" for the page)');
    const found = resolveAll(str(selector));
    if (!found.length) {
      throw fail('ELEMENT_NOT_FOUND', 'no element matches "' + selector + '"; check the selector or scan the page');
    }
    return found[0];
  }

  function cmdGetText(cmd) {
    const el = firstBySelectorOrId(cmd, 'get_text');
    const tag = tagOf(el);
    const text = tag === 'input' || tag === 'textarea' ? maskIfPassword(el, rawValue(el, tag, tag) || '')
        : strTrim(composedText(el));
    return { text };
  }

  /**
   * innerText does not enter shadow roots; what a person reads does. The element's own text,
   * then the text of every open shadow root under it (nested ones too), in document order.
   */
  function composedText(el) {
    let text = str(safeInnerText(el));
    const hosts = [];
    if (shadowRoot(el)) push(hosts, el);
    each(queryAll(el, '*'), (h) => { if (shadowRoot(h)) push(hosts, h); });
    each(hosts, (h) => {
      const root = shadowRoot(h);
      each(queryAll(root, '*'), (child) => {
        if (parentNode(child) !== root) return; // the root's own children; deeper ones come with them
        const inner = strTrim(composedText(child));
        if (inner) text += '\n' + inner;
      });
    });
    return text;
  }

  function cmdExists(cmd) {
    const selector = param(cmd, 'selector', null);
    if (selector === null) throw fail('SELECTOR_INVALID', 'exists needs "selector"');
    const found = resolveAll(str(selector));
    const out = { exists: found.length > 0, count: found.length };
    if (found.length) {
      const id = wmGet(state.byElement, found[0]);
      if (id && state.items[id] && state.items[id].el === found[0]) out.id = id;
      out.visible = isVisible(found[0]);
    }
    return out;
  }

  const QUERY_ADDED_MAX = 100;

  /**
   * query (scanner/README.md; spec §3 has no query: the engine's target resolution): the elements
   * a CSS selector (combinators pierce open shadow roots and same-origin
   * frames, as Playwright's css engine does; "A >>> B" as everywhere) or an XPath (in the top
   * document and every same-origin frame document) matches. `ids`: those already in the map;
   * the others (interactive or not) are registered with new ids after the current maximum and
   * returned whole in `added` (at most `max`, default 100; `count` counts all matches).
   */
  function cmdQuery(cmd) {
    const xpath = param(cmd, 'xpath', null);
    const selector = param(cmd, 'selector', null);
    if (xpath === null && selector === null) throw fail('SELECTOR_INVALID', 'query needs "selector" or "xpath"');
    const found = xpath !== null ? resolveXPathDeep(str(xpath)) : resolvePiercing(str(selector));
    const max = mathMax(0, mathFloor(+param(cmd, 'max', QUERY_ADDED_MAX)) || 0);
    const ids = [];
    const added = [];
    const active = deepActiveElement(TOP_DOC);
    each(found, (el) => {
      const id = idOf(el);
      if (id) {
        if (!includes(ids, id)) push(ids, id);
        return;
      }
      if (added.length >= max) return;
      const r = register(el);
      push(added, elementJson(r.item, true, true, active));
    });
    return { count: found.length, ids, added };
  }

  /**
   * get_selector (an addition to spec §3, scanner/README.md): the selector and XPath of an element
   * of the map (scan's detail_max omits them); ELEMENT_NOT_FOUND / ELEMENT_STALE as spec §2.3.
   */
  function cmdGetSelector(cmd) {
    const item = requireId(cmd, 'get_selector');
    return { id: item.id, selector: itemSelector(item), xpath: xpathOf(item.el, item.ctx.chain) };
  }

  /**
   * XPath from the top document; without ">>>", also in every same-origin frame document (a
   * frame's own document is the context there).
   */
  function resolveXPathDeep(expr) {
    if (contains_(expr, '>>>')) return resolveXPath(expr);
    const out = [];
    each(deepRoots(TOP_DOC), (root) => {
      if (nodeType(root) !== DOCUMENT_NODE) return;
      each(evaluateXPath(root, root, expr, expr), (el) => push(out, el));
    });
    return out;
  }

  // ----- find_text: any visible text, as Playwright's getByText finds it -----

  const FIND_TEXT_MAX = 10;

  /**
   * find_text {text, match: "exact" | "contains" | "regex", max} (an addition to spec §3,
   * scanner/README.md; issue 11's text fallback): elements showing the text,
   * with Playwright's getByText semantics (whitespace normalized; exact: the whole text, case
   * sensitive; contains: a substring, case insensitive; regex: a JavaScript pattern, "/p/flags"
   * or plain; the smallest element whose text matches, none of its children matching; button
   * inputs by their value), over visible text in the document, open shadow roots and same-origin
   * frames. Each match acts through its nearest actionable ancestor ("via": "ancestor"), the
   * control of a <label> ("label"), or itself ("self"). Best first: exact, then shortest text,
   * in the viewport, document order. Elements are registered in the map as for query.
   */
  function cmdFindText(cmd) {
    const raw = param(cmd, 'text', null);
    if (raw === null || typeof raw === 'object') throw fail('SCRIPT_ERROR', 'find_text needs "text"');
    const mode = str(param(cmd, 'match', 'contains'));
    if (mode !== 'exact' && mode !== 'contains' && mode !== 'regex') {
      throw fail('SCRIPT_ERROR', 'match must be "exact", "contains" or "regex", got "' + mode + '"');
    }
    const max = mathMax(1, mathFloor(+param(cmd, 'max', FIND_TEXT_MAX)) || FIND_TEXT_MAX);
    const ranked = textMatches(str(raw), mode);
    const active = deepActiveElement(TOP_DOC);
    const out = [];
    for (let i = 0; i < ranked.length && out.length < max; i++) {
      const m = ranked[i];
      const target = actionableFor(m.el);
      const r = register(target.el);
      // The text's own box: `near` measures from it, not from the box acted through (a grid's
      // focusable body holds every row).
      const text_rect = topRect(m.el, frameChainOf(m.el));
      push(out, { element: elementJson(r.item, true, true, active), via: target.via, matched: truncate(m.text, 200), text_rect });
    }
    return { count: ranked.length, matches: out };
  }

  /** The elements showing `raw` as find_text matches them, best first: [{el, text}]. */
  function textMatches(raw, mode) {
    const test = textMatcher(raw, mode);
    const roots = deepRoots(TOP_DOC);
    each(roots, (root) => syncListeners(nodeType(root) === DOCUMENT_NODE ? root : null));
    const cache = newVisibilityCache();
    const textOf = new B.Map(); // element -> its normalized text
    const textFor = (el) => {
      let t = mapGet(textOf, el);
      if (t === undefined) {
        t = collapse(elementTextForMatch(el));
        mapSet(textOf, el, t);
      }
      return t;
    };
    const verdict = new B.Map(); // element -> matches
    const matchesEl = (el) => {
      let v = mapGet(verdict, el);
      if (v === undefined) {
        v = test(textFor(el));
        mapSet(verdict, el, v);
      }
      return v;
    };
    // The smallest matching element above each visible text node; then drop those holding another.
    const hits = [];
    const hitSet = new B.Set();
    const consider = (el) => {
      for (let n = el, depth = 0; n && depth < 30; n = parentElement(n), depth++) {
        const tag = tagOf(n);
        if (tag === 'script' || tag === 'style' || tag === 'noscript' || tag === 'head') return;
        if (matchesEl(n)) {
          // A box matching through a child of its own that showed no text of its own here (an
          // option scrolled out of its list, found hidden) is not this text's match.
          if (n !== el && childMatches(n)) return;
          if (!setHas(hitSet, n)) {
            setAdd(hitSet, n);
            push(hits, n);
          }
          return;
        }
      }
    };
    const childMatches = (n) => {
      for (let c = firstElementChild(n), k = 0; c && k < 500; c = nextElementSibling(c), k++) {
        if (matchesEl(c)) return true;
      }
      return false;
    };
    each(roots, (root) => {
      const doc = nodeType(root) === DOCUMENT_NODE ? root : ownerDocument(root);
      const walker = docCreateTreeWalker(doc, root, 4 /* SHOW_TEXT */);
      for (let t = walker.nextNode(); t; t = walker.nextNode()) {
        if (!reTest(/\S/, nodeValue(t))) continue;
        const el = parentElement(t);
        if (el && visibilityOf(el, cache, true).visible) consider(el);
      }
      let buttons = [];
      try {
        buttons = queryAll(root, 'input[type=button], input[type=submit], input[type=reset]');
      } catch (e) {
        buttons = [];
      }
      each(buttons, (el) => {
        if (!setHas(hitSet, el) && test(collapse(attr(el, 'value'))) && visibilityOf(el, cache, true).visible) {
          setAdd(hitSet, el);
          push(hits, el);
          mapSet(textOf, el, collapse(attr(el, 'value')));
        }
      });
    });
    const smallest = filter(hits, (el) => find(hits, (o) => o !== el && composedContains(el, o)) === null);
    const exactText = collapse(raw);
    return sortBy(map(smallest, (el, i) => {
      const text = mapGet(textOf, el);
      const vis = visibilityOf(el, cache, false);
      const r = vis.rect;
      const vp = viewportSize(ownerDocument(el));
      const shown = vis.visible && r.left < vp.width && r.left + r.width > 0 && r.top < vp.height &&
          r.top + r.height > 0;
      const exact = text === exactText ? 0 : lc(text) === lc(exactText) ? 1 : 2;
      return { el, text, order: i, score: exact * 1e7 + mathMin(text.length, 9999) * 1e3 + (shown ? 0 : 500) + mathMin(i, 499) };
    }), (m) => m.score);
  }

  /** The text find_text matches an element by: its inner text (shadow content included). */
  function elementTextForMatch(el) {
    const tag = tagOf(el);
    if (tag === 'input') return attr(el, 'value');
    if (shadowRoot(el)) return composedText(el);
    return str(safeInnerText(el));
  }

  function textMatcher(text, mode) {
    if (mode === 'regex') {
      const m = B.reExec(/^\/(.*)\/([dgimsuy]*)$/s, text);
      let re;
      try {
        re = m ? new B.RegExp(m[1], strReplace(m[2], /g/g, '')) : new B.RegExp(text);
      } catch (e) {
        throw fail('SCRIPT_ERROR', 'invalid regular expression "' + text + '": ' + errorText(e));
      }
      return (t) => reTest(re, t);
    }
    const want = collapse(text);
    if (mode === 'exact') return (t) => t === want;
    const lower = lc(want);
    return (t) => contains_(lc(t), lower);
  }

  /**
   * What a press on text in `el` reaches: the nearest actionable ancestor-or-self (in the map,
   * a control or widget, or a plain clickable), a label's control, else `el` itself.
   */
  function actionableFor(el) {
    for (let n = el, depth = 0; n && depth < 12; n = composedParent(n), depth++) {
      const tag = tagOf(n);
      if (tag === 'body' || tag === 'html') break;
      if (tag === 'label') {
        const control = labelControl(n);
        if (control) return { el: control, via: 'label' };
      }
      if (idOf(n) || isInteractiveCandidate(n, tag) || plainClickable(n)) {
        return { el: n, via: n === el ? 'self' : 'ancestor' };
      }
    }
    return { el, via: 'self' };
  }

  /** True when `el` is a plain element a person can click (the scan's rules, one element). */
  function plainClickable(el) {
    const tag = tagOf(el);
    if (NOT_CLICKABLE_TAGS[tag] || structural(el)) return false;
    let why = plainReasons(el, pointerCandidates(getRootNode(el)));
    const ti = getAttribute(el, 'tabindex');
    if (ti !== null) why |= attributeReasons(el);
    else if (hasAttribute(el, 'onclick') || hasAttribute(el, 'onmousedown') || hasAttribute(el, 'onpointerdown')) why |= BY_HANDLER;
    return why !== 0 && confirmClickable({ el, why }) !== 0;
  }

  /**
   * Elements an XPath matches from the top document; ">>>" continues inside shadow roots or frame
   * documents, where a leading "/step" starts at the shadow root's top-level elements.
   */
  function resolveXPath(expr) {
    const parts = selectorParts(expr);
    let roots = [TOP_DOC];
    let found = [];
    each(parts, (part, i) => {
      found = [];
      each(roots, (root) => each(xpathIn(root, part, expr), (el) => push(found, el)));
      if (i < parts.length - 1) roots = innerRoots(found);
    });
    return found;
  }

  function xpathIn(root, part, whole) {
    if (nodeType(root) === DOCUMENT_NODE) return evaluateXPath(root, root, part, whole);
    // Shadow roots cannot be XPath context nodes: start from their top-level elements.
    const m = B.reExec(/^\/([^/[]+)(?:\[(\d+)\])?(.*)$/, part);
    const tops = filter(B.fragChildren(root), (c) => !m || m[1] === '*' || localName(c) === m[1]);
    if (!m) {
      // "//x" from a shadow root: "x" at any depth below it, top-level elements included.
      const rel = strSlice(part, 0, 2) === '//' ? 'descendant-or-self::' + strSlice(part, 2) : part;
      return flatMap(tops, (c) => evaluateXPath(ownerDocument(c), c, rel, whole));
    }
    const picked = m[2] ? (tops[+m[2] - 1] ? [tops[+m[2] - 1]] : []) : tops;
    if (!m[3]) return picked;
    return flatMap(picked, (c) => evaluateXPath(ownerDocument(c), c, '.' + m[3], whole));
  }

  function flatMap(list, fn) {
    const out = [];
    each(list, (v) => each(fn(v), (x) => push(out, x)));
    return out;
  }

  function evaluateXPath(doc, context, expr, whole) {
    let result;
    try {
      result = B.docEvaluate(doc, expr, context, null, 7 /* ORDERED_NODE_SNAPSHOT_TYPE */, null);
    } catch (e) {
      throw fail('SELECTOR_INVALID', 'invalid XPath "' + expr + '" in "' + whole + '": ' + errorText(e));
    }
    const out = [];
    const n = B.xpathSnapshotLength(result);
    for (let i = 0; i < n; i++) {
      const node = B.xpathSnapshotItem(result, i);
      if (node && nodeType(node) === ELEMENT_NODE) push(out, node);
    }
    return out;
  }

  // ----- wait_for -----

  const CONDITIONS = { visible: 1, hidden: 1, exists: 1, gone: 1, enabled: 1, disabled: 1 };

  /** A probe returns {met, detail}; detail explains the last state for the TIMEOUT message. */
  function waitProbe(cmd, condition) {
    if (hasOwn(cmd, 'id') && cmd.id !== null && cmd.id !== undefined && param(cmd, 'selector', null) === null) {
      // A removed element is allowed here: it satisfies "gone" and "hidden".
      const item = typeof cmd.id === 'number' ? state.items[cmd.id] : null;
      if (!item) lookup(cmd.id);
      const target = () => (isLive(item) ? [item.el] : []);
      return { describe: itemLabel(item), probe: () => evaluateCondition(condition, target()) };
    }
    const text = param(cmd, 'text', null);
    if (text !== null) {
      // Text shown anywhere on the page (documents and shadow roots the last scan walked).
      const want = lc(collapse(str(text)));
      const roots = () => {
        const r = sliceArr(state.roots, 0, state.roots.length);
        if (!includes(r, TOP_DOC)) push(r, TOP_DOC);
        return r;
      };
      return { describe: 'text "' + text + '"',
        probe: () => evaluateCondition(condition, elementsWithText(want, roots(), false, true)) };
    }
    const xpath = param(cmd, 'xpath', null);
    if (xpath !== null) {
      resolveXPath(str(xpath)); // validates the syntax now, not at timeout
      return { describe: 'xpath ' + xpath, probe: () => evaluateCondition(condition, resolveXPath(str(xpath))) };
    }
    const selector = param(cmd, 'selector', null);
    if (selector === null) throw fail('SELECTOR_INVALID', 'wait_for needs "selector", "xpath", "text" or "id"');
    resolveAll(str(selector)); // validates the syntax now, not at timeout
    return { describe: '"' + selector + '"', probe: () => evaluateCondition(condition, resolveAll(str(selector))) };
  }

  function evaluateCondition(condition, found) {
    const cache = newVisibilityCache();
    const anyVisible = find(found, (el) => visibilityOf(el, cache).visible) !== null;
    switch (condition) {
      case 'exists': return { met: found.length > 0, detail: 'no element matches' };
      case 'gone': return { met: found.length === 0, detail: found.length + ' element(s) still match' };
      case 'visible': return { met: anyVisible, detail: found.length ? 'element exists but is hidden (' + visibilityOf(found[0], cache).reason + ')' : 'no element matches' };
      case 'hidden': return { met: !anyVisible, detail: 'element is still visible' };
      case 'enabled': return { met: found.length > 0 && !isDisabled(found[0]), detail: found.length ? 'element is still disabled' : 'no element matches' };
      default: return { met: found.length > 0 && isDisabled(found[0]), detail: found.length ? 'element is still enabled' : 'no element matches' };
    }
  }

  /**
   * Event-driven wait: re-checks on DOM mutations, transition/animation ends and iframe loads (plus
   * one animation frame after each, for style that settles late). Never polls on an interval.
   */
  async function cmdWaitFor(cmd) {
    const condition = str(param(cmd, 'condition', ''));
    if (!CONDITIONS[condition]) {
      throw fail('SCRIPT_ERROR', 'condition must be one of visible, hidden, exists, gone, enabled, disabled; got "' + condition + '"');
    }
    const timeout = countParam(cmd, 'timeout', 30000);
    const w = waitProbe(cmd, condition);
    const t0 = now();
    if (w.probe().met) return { met: true, waited_ms: 0, condition };
    return new B.Promise((resolve, reject) => {
      // Every open shadow root now, not only those the last scan walked: a banner rendered into
      // a shadow root before any scan shows by a style change there.
      const stopWatching = watchForChanges(() => {
        let r;
        try {
          r = w.probe();
        } catch (e) {
          r = { met: false };
        }
        if (!r.met) return false;
        finish();
        resolve({ met: true, waited_ms: round(now() - t0), condition });
        return true;
      }, docElement(TOP_DOC) ? shadowRootsUnder(docElement(TOP_DOC)) : []);
      const timer = B.setTimeout(() => {
        finish();
        let detail = '';
        try {
          detail = w.probe().detail;
        } catch (e) {
          detail = errorText(e);
        }
        reject(fail('TIMEOUT', 'wait_for ' + condition + ' ' + w.describe + ' timed out after ' +
            timeout + ' ms: ' + detail + '; increase timeout or check the condition'));
      }, timeout);
      function finish() {
        B.clearTimeout(timer);
        stopWatching();
      }
    });
  }

  /**
   * Has `mo` watch every change under the top document, the shadow roots the last scan walked and
   * `moreRoots`.
   */
  /** The top document, the shadow roots the last scan walked, and `moreRoots`. */
  function watchedRoots(moreRoots) {
    const roots = sliceArr(state.roots, 0, state.roots.length);
    if (!includes(roots, TOP_DOC)) push(roots, TOP_DOC);
    each(moreRoots || [], (root) => { if (!includes(roots, root)) push(roots, root); });
    return roots;
  }

  function observeRoots(mo, moreRoots) {
    each(watchedRoots(moreRoots), (root) => {
      try {
        moObserve(mo, root, { childList: true, subtree: true, attributes: true, characterData: true });
      } catch (e) {
        // a root that went away: nothing to watch there
      }
    });
  }

  /** Calls `check` after every relevant change until it returns true; returns an unsubscribe. */
  function watchForChanges(check, moreRoots) {
    let stopped = false;
    let framePending = false;
    const run = () => { if (!stopped) check(); };
    const runNowAndNextFrame = () => {
      if (stopped || check() || framePending) return;
      framePending = true;
      B.requestAnimationFrame(() => { framePending = false; run(); });
    };
    const mo = new B.MutationObserver(runNowAndNextFrame);
    observeRoots(mo, moreRoots);
    const events = ['transitionend', 'animationend', 'load', 'scroll', 'resize'];
    each(events, (t) => addListener(TOP_DOC, t, runNowAndNextFrame, true));
    addListener(TOP_WINDOW, 'resize', runNowAndNextFrame, true);
    return () => {
      stopped = true;
      moDisconnect(mo);
      each(events, (t) => removeListener(TOP_DOC, t, runNowAndNextFrame, true));
      removeListener(TOP_WINDOW, 'resize', runNowAndNextFrame, true);
    };
  }

  // ----- wait_change: the next change of the page, for the engine's event-driven re-checks -----

  /** Resolves on the first DOM mutation, transition/animation end or load, or at `timeout` ms. */
  function cmdWaitChange(cmd) {
    const timeout = countParam(cmd, 'timeout', 1000);
    const t0 = now();
    return new B.Promise((resolve) => {
      const stop = watchForChanges(() => {
        finish();
        resolve({ changed: true, waited_ms: round(now() - t0) });
        return true;
      });
      const timer = B.setTimeout(() => {
        finish();
        resolve({ changed: false, waited_ms: round(now() - t0) });
      }, timeout);
      function finish() {
        B.clearTimeout(timer);
        stop();
      }
    });
  }

  // ----- wait_animations: until the finite animations and transitions running now have ended ---
  // (a popup fading in is not visible yet; infinite ones, like spinners, are not waited for)

  /** The finite animations and transitions running (or about to start) now, `keep` passing. */
  function finiteAnimations(keep) {
    // The document's own list leaves out what runs in shadow trees (Ionic's popover animates in
    // its shadow root): each scanned root is asked too.
    const list = [];
    const seen = new B.Set();
    each(watchedRoots(), (root) => {
      let mine = [];
      try {
        mine = root.getAnimations ? root.getAnimations() : [];
      } catch (e) {
        mine = [];
      }
      each(mine, (a) => {
        if (setHas(seen, a)) return;
        setAdd(seen, a);
        push(list, a);
      });
    });
    return filter(list, (a) => {
      try {
        const timing = a.effect && a.effect.getComputedTiming();
        return a.playState === 'running' && !!timing && timing.endTime < 1e9 && (!keep || keep(a));
      } catch (e) {
        return false;
      }
    });
  }

  /** Resolves when `running()` is empty or `timeout` ms have passed: {settled, running, waited_ms}. */
  function untilAnimationsEnd(running, timeout) {
    const t0 = now();
    return new B.Promise((resolve) => {
      const check = () => {
        const list = running();
        const waited = now() - t0;
        if (!list.length || waited >= timeout) {
          resolve({ settled: !list.length, running: list.length, waited_ms: round(waited) });
          return;
        }
        let done = false;
        const next = () => {
          if (done) return;
          done = true;
          B.clearTimeout(timer);
          check();
        };
        const timer = B.setTimeout(next, timeout - waited);
        each(list, (a) => {
          try {
            a.finished.then(next, next);
          } catch (e) {
            // an animation without a finished promise: the timer covers it
          }
        });
      };
      check();
    });
  }

  /**
   * wait_timers: until the short timers the last watched action started (and those their
   * callbacks started) have run, at most `timeout` ms. `settled` is null without a registry.
   */
  function cmdWaitTimers(cmd) {
    const timeout = countParam(cmd, 'timeout', 1000);
    const ch = channelName();
    const t0 = now();
    if (!ch) return { settled: null, waited_ms: 0 };
    return new B.Promise((resolve) => {
      let done = false;
      let cap = null;
      const type = ch + '-tdone';
      const finish = (settled) => {
        if (done) return;
        done = true;
        B.clearTimeout(cap);
        removeListener(TOP_DOC, type, onDone, true);
        // `done`: nothing pending, and the registry followed all the action's work to its end.
        const answer = { settled, waited_ms: round(now() - t0) };
        if (settled) answer.done = askTopRegistry('wq', ['wdone', 'wopen']) === 'wdone';
        resolve(answer);
      };
      const onDone = () => finish(true);
      addListener(TOP_DOC, type, onDone, true);
      cap = B.setTimeout(() => finish(false), timeout);
      try {
        askRegistry(TOP_DOC, TOP_DOC, ch + '-tw');
      } catch (e) {
        finish(null);
      }
    });
  }

  function cmdWaitAnimations(cmd) {
    return untilAnimationsEnd(() => finiteAnimations(null), countParam(cmd, 'timeout', 1000));
  }

  // What moves an element or shows it: geometry, transforms, opacity (a colour fading does not).
  const MOVING_PROPERTY = /^(transform|translate|rotate|scale|opacity|visibility|display|top|left|right|bottom|inset|margin|padding|width|height|min|max|flex|grid|clip|offset|zoom|position)/i;

  function movesOrShows(a) {
    try {
      if (a.transitionProperty) return MOVING_PROPERTY.test(str(a.transitionProperty));
      const frames = a.effect.getKeyframes();
      for (let i = 0; i < frames.length; i++) {
        for (const key in frames[i]) {
          if (key !== 'offset' && MOVING_PROPERTY.test(key)) return true;  // offset: the keyframe's place
        }
      }
    } catch (e) {
      return true;  // cannot tell: treat as moving (bounded by the caller's timeout)
    }
    return false;
  }

  /**
   * The finite animations that move or reveal `el` (on it or an ancestor): a toast sliding in
   * would take the press on the button and the release beside it. Checking the box in two
   * frames misses an animation that has not started yet (its first frames repeat keyframe 0%).
   */
  function movingAnimations(el) {
    return finiteAnimations((a) => {
      const target = a.effect && a.effect.target;
      return !!target && (composedContains(target, el) || flatContains(target, el)) && movesOrShows(a);
    });
  }

  // ----- wait_upgrades: until the web components on the page are defined (untilUpgraded) ------

  function cmdWaitUpgrades(cmd) {
    const timeout = countParam(cmd, 'timeout', UPGRADE_TIMEOUT_MS);
    const patience = countParam(cmd, 'patience', UPGRADE_PATIENCE_MS);
    const frames = countParam(cmd, 'frames', PATIENCE_FRAMES);
    return untilUpgraded(null, timeout, patience, frames, param(cmd, 'final', true) !== false);
  }

  // ----- watched: did the page change since `point` with `watch` (just before an action)? -----
  // The engine answers at once after an action the page did nothing about; one that changed the
  // DOM (a class set by the handler, a node added) is waited for. Disarms the watch.

  let actionWatch = null;

  // The top document's registry (listeners.js): "-tarm" before the action, "-tq" after it
  // (timers pending or none), "-rq" (heard or not), "-tw" to wait until the followed timers have
  // run. No registry: no answer (no timers; heard).
  const askTopRegistry = (what, answers) => askRegistryFor(TOP_DOC, TOP_DOC, what, answers);

  function armWatch() {
    disarmWatch();
    askTopRegistry('tarm', []);
    const w = { changes: 0, mo: null };
    try {
      w.mo = new B.MutationObserver((records) => { w.changes += records.length; });
      observeRoots(w.mo);
    } catch (e) {
      w.changes = 1;  // cannot watch: count as changed
    }
    actionWatch = w;
  }

  function disarmWatch() {
    if (actionWatch && actionWatch.mo) moDisconnect(actionWatch.mo);
    actionWatch = null;
  }

  // With `quiet` (and `frames`, `timeout`) and no change counted, it then waits for a still spell
  // as wait_quiet with `animations` does, in the same call, and returns that as `still`.
  async function cmdWatched(cmd) {
    const w = actionWatch;
    if (w && w.mo) w.changes += moTakeRecords(w.mo).length;
    disarmWatch();
    if (!w) return { armed: false, changes: 0 };
    // A short timer the action started is work to come (wait_timers waits for it).
    const timers = askTopRegistry('tq', ['tpending', 'tnone']) === 'tpending';
    const quiet = countParam(cmd, 'quiet', 0);
    if (timers) return { armed: true, changes: w.changes, timers: true };
    if (w.changes || !quiet) return { armed: true, changes: w.changes };
    // `unheard_ok`: no listener of the page heard the action's events (the registry followed
    // them), so no code of the page ran for it and there is no reaction to wait for.
    if (param(cmd, 'unheard_ok', false) === true && askTopRegistry('rq', ['heard', 'unheard']) === 'unheard') {
      return { armed: true, changes: 0, unheard: true };
    }
    const spell = { quiet, frames: countParam(cmd, 'frames', 0), timeout: countParam(cmd, 'timeout', 600), animations: true };
    return { armed: true, changes: 0, still: await cmdWaitQuiet(spell) };
  }

  // ----- wait_quiet: until the page has not changed for `quiet` ms (animations run by scripts,
  // a list re-rendering), at most `timeout` ms; after actions, so the next scan sees the result --

  // With `animations`, a finite animation that moves or reveals something counts as change too:
  // the still spell starts when it ends (a backdrop fades in, its end shows the modal, which fades
  // in: Bootstrap's chain shows no mutation for 150 ms in the middle).

  // With `done_quiet`: when the listener registry says every piece of work the watched action's
  // code scheduled was followed and has run ("-wq"), what it changed is all there is: the spell
  // is then `done_quiet` ms and `done_frames` frames, animations counted (the still window after
  // an action the page ignored), and the answer says `done`. The registry is asked again when
  // the short spell ends: work that came during it (an image's load handler, a transition's end)
  // is waited for (its followed timers, then the spell as asked), and the answer is not `done`;
  // so is work the registry says is open when the call starts.

  function cmdWaitQuiet(cmd) {
    const asked = param(cmd, 'done_quiet', null) !== null ? askTopRegistry('wq', ['wdone', 'wopen']) : null;
    let workDone = asked === 'wdone';
    const timeout = countParam(cmd, 'timeout', 600);
    // `frames`: the spell also spans this many animation frames, so a reaction the page makes in
    // its next frame (requestAnimationFrame, a transition started by a style change) is seen
    // however slowly a loaded machine draws. A hidden tab draws none: then `quiet` + 50 ms.
    let quiet = 0;
    let animations = false;
    let frames = 0;
    const spellAsked = () => {
      quiet = workDone ? countParam(cmd, 'done_quiet', 20) : countParam(cmd, 'quiet', 80);
      animations = workDone || param(cmd, 'animations', false) === true;
      frames = workDone ? countParam(cmd, 'done_frames', 0) : countParam(cmd, 'frames', 0);
    };
    spellAsked();
    const t0 = now();
    return new B.Promise((resolve) => {
      let done = false;
      let changes = 0;
      let animated = 0;
      let timer = null;
      let fallback = null;
      let spell = 0;  // the current still spell; a change starts a new one
      let waiting = false;  // for the work that came during the short spell
      let cap = null;
      let mo = null;
      const finish = (settled) => {
        if (done) return;
        done = true;
        B.clearTimeout(timer);
        B.clearTimeout(fallback);
        B.clearTimeout(cap);
        if (mo) moDisconnect(mo);
        const answer = { settled, changes, animated, waited_ms: round(now() - t0) };
        if (workDone) answer.done = true;
        resolve(answer);
      };
      const still = () => {
        if (workDone && askTopRegistry('wq', ['wdone', 'wopen']) !== 'wdone') {
          workDone = false;
          spellAsked();
          spell++; // this spell's other callbacks (a frame's, the fallback's) are over
          B.clearTimeout(timer);
          B.clearTimeout(fallback);
          afterWork();
          return;
        }
        const running = animations ? finiteAnimations(movesOrShows) : [];
        if (!running.length) return finish(true);
        animated++;
        let woken = false;
        const wake = () => {
          if (woken || done) return;
          woken = true;
          arm();
        };
        each(running, (a) => {
          try {
            a.finished.then(wake, wake);
          } catch (e) {
            // no finished promise: the cap ends the wait
          }
        });
      };
      // Changes meanwhile are counted; the spell starts when the work's followed timers have run.
      const afterWork = () => {
        waiting = true;
        cmdWaitTimers({ timeout: mathMax(0, timeout - (now() - t0)) }).then(() => {
          waiting = false;
          if (!done) arm();
        });
      };
      const arm = () => {
        const mine = ++spell;
        let timeUp = false;
        let framesLeft = frames;
        const over = () => {
          if (mine === spell && !done && timeUp && framesLeft <= 0) still();
        };
        B.clearTimeout(timer);
        B.clearTimeout(fallback);
        timer = B.setTimeout(() => {
          timeUp = true;
          // Frames that do not come: a hidden tab draws none (quiet + 50 ms); a visible one
          // draws, however late on a loaded machine (seen: no frame for 50 ms beside a full
          // test run), so only a renderer stalled for half a second ends the spell without them.
          if (framesLeft > 0) {
            fallback = B.setTimeout(() => { framesLeft = 0; over(); }, drawing() ? FRAME_STALL_MS : SETTLE_FALLBACK_MS);
          }
          over();
        }, quiet);
        if (framesLeft <= 0) return;
        const tick = () => {
          if (mine !== spell || done) return;
          if (--framesLeft > 0) {
            B.requestAnimationFrame(tick);
          } else {
            over();
          }
        };
        try {
          B.requestAnimationFrame(tick);
        } catch (e) {
          framesLeft = 0;  // no rAF in this context: time alone
        }
      };
      mo = new B.MutationObserver(() => {
        changes++;
        if (!waiting) arm();
      });
      observeRoots(mo);
      cap = B.setTimeout(() => finish(false), timeout);
      // Work that came after the action's timers were waited for and before this call (a 50 ms
      // transition that ended in between, on a loaded machine, and set its timers) is waited for
      // as work that comes during the short spell is.
      if (asked === 'wopen') afterWork();
      else arm();
    });
  }

  // ----- execute -----

  async function cmdExecute(cmd) {
    const script = param(cmd, 'script', null);
    if (typeof script !== 'string') throw fail('SCRIPT_ERROR', 'execute needs "script", a function body');
    const args = isArray(param(cmd, 'args', [])) ? cmd.args || [] : [];
    let fn;
    try {
      fn = compileScript(script);
    } catch (e) {
      throw fail('SCRIPT_ERROR', 'script does not compile: ' + errorText(e) +
          (reTest(/unsafe-eval|Content Security Policy|EvalError/i, errorText(e))
            ? ' (the page forbids eval; use the backend\'s own evaluate)' : ''));
    }
    let value;
    try {
      value = await apply(fn, null, args);
    } catch (e) {
      throw fail('SCRIPT_ERROR', 'script threw ' + errorText(e));
    }
    return { value: toPlain(value, 0, []) };
  }

  /** `return (expr)` when the script is a bare expression, else the script as a function body. */
  function compileScript(script) {
    try {
      return new MainFunction('return (\n' + script + '\n);');
    } catch (e) {
      return new MainFunction(script);
    }
  }

  /** JSON-able copy of any value: elements become {element: selector, id}, cycles "[Circular]". */
  function toPlain(v, depth, seen) {
    if (v === null || v === undefined) return null;
    const t = typeof v;
    if (t === 'string' || t === 'boolean') return v;
    if (t === 'number') return numIsFinite(v) ? v : str(v);
    if (t === 'bigint' || t === 'symbol') return str(v);
    if (t === 'function') return null;
    if (depth > 20) return '[Too deep]';
    if (includes(seen, v)) return '[Circular]';
    try {
      const nt = nodeType(v);
      if (nt === ELEMENT_NODE) {
        const out = { element: fullSelector(v, frameChainOf(v)) };
        const id = wmGet(state.byElement, v);
        if (id) out.id = id;
        return out;
      }
      if (nt) return str(textContent(v));
    } catch (e) {
      // not a DOM node
    }
    try {
      return dateToIso(v);
    } catch (e) {
      // not a Date
    }
    const next = sliceArr(seen, 0, seen.length);
    push(next, v);
    if (isArray(v) || (typeof v.length === 'number' && typeof v !== 'string' && !objectKeys(v).length)) {
      const out = [];
      for (let i = 0; i < v.length && i < 10000; i++) push(out, toPlain(v[i], depth + 1, next));
      return out;
    }
    if (v instanceof G.Error || (typeof v.message === 'string' && typeof v.stack === 'string')) {
      return { name: str(v.name), message: str(v.message) };
    }
    const out = {};
    each(objectKeys(v), (k) => {
      const x = toPlain(v[k], depth + 1, next);
      if (x !== undefined) out[k] = x;
    });
    return out;
  }

  // ----- version -----

  function cmdVersion() {
    return {
      protocol: PROTOCOL_VERSION,
      scanner: SCANNER_VERSION,
      features: [
        'scan', 'scan.max_elements', 'scan.include_hidden', 'scan.near', 'scan.within',
        'scan.viewport_only', 'scan.patterns', 'scan.shadow_dom', 'scan.same_origin_iframes',
        'scan.stable_keys', 'click', 'click.button', 'click.click_count', 'click.modifiers',
        'click.offset', 'click.force', 'click.scroll_into_view', 'point', 'point.guard', 'point.watch', 'point.focus_quiet', 'watched', 'guard_result', 'type', 'type.delay',
        'type.contenteditable', 'clear', 'check', 'uncheck', 'select', 'select.multiple',
        'scroll', 'scroll.smooth', 'focus', 'hover', 'submit', 'get_value', 'key_listeners', 'file_input_for', 'get_text', 'exists',
        'wait_for', 'wait_for.text', 'wait_for.xpath', 'wait_change', 'wait_animations', 'wait_upgrades', 'wait_timers', 'execute', 'version', 'selector.pierce', 'query', 'query.xpath',
        'scan.messages', 'scan.document', 'scan.detail_max', 'scan.aliases', 'scan.listeners',
        'scan.clickables', 'get_selector', 'query.pierce', 'query.register', 'find_text', 'extract',
      ],
    };
  }

  // ===============================================================================================
  // 14b. extract: the page's content as data (an addition to spec §3, scanner/README.md; issue 13).
  //      Reads what a person sees (rendered elements, through open shadow roots and same-origin
  //      frames, in composed document order) with the captured builtins, so a page that replaced
  //      its own cannot change the answer.
  // ===============================================================================================
  const EXTRACT_KINDS = ['text', 'links', 'tables', 'images', 'meta', 'forms', 'list'];
  // Items returned when no `max` is given (the engine passes its own).
  const EXTRACT_MAX = { text: 200, links: 100, tables: 20, images: 50, meta: 100, forms: 10, list: 30 };
  const EXTRACT_TABLES_MAX = 10; // tables returned whole (their rows paged) when none is chosen
  const CELL_MAX = 200;          // characters of a table cell
  const ITEM_TEXT_MAX = 300;     // characters of a list item's text
  const LINE_MAX = 500;          // characters of a text line
  const SECTIONING = { section: 1, article: 1, aside: 1, nav: 1, main: 1, form: 1, fieldset: 1,
    dialog: 1, header: 1, footer: 1 };
  const SECTION_ROLES = { region: 1, navigation: 1, complementary: 1, main: 1, dialog: 1, form: 1,
    contentinfo: 1, banner: 1, tabpanel: 1, group: 1 };
  const HEADINGS = 'h1, h2, h3, h4, h5, h6, [role=heading]';
  const HOLDS = { links: 'a[href], area[href]', tables: 'table, [role=table], [role=grid], [role=treegrid]',
    images: 'img, [role=img]', forms: 'form, input, select, textarea', list: '*', text: '*', meta: '*' };

  function cmdExtract(cmd) {
    const kind = str(param(cmd, 'kind', ''));
    if (!includes(EXTRACT_KINDS, kind)) {
      throw fail('SCRIPT_ERROR', 'extract needs "kind", one of ' + join(EXTRACT_KINDS, ', ') + '; got "' + kind + '"');
    }
    const offset = mathFloor(countParam(cmd, 'offset', 0));
    const max = mathFloor(countParam(cmd, 'max', EXTRACT_MAX[kind]));
    const anchor = extractAnchor(cmd);
    if (kind === 'meta') return paged(kind, metaEntries(), offset, max, 'the document');
    if (kind === 'list') {
      if (!anchor) throw fail('ELEMENT_NOT_FOUND', 'extract list needs a target: an item of the list, or the list itself');
      const items = listItemsOf(anchor);
      if (!items) {
        throw fail('ELEMENT_NOT_FOUND', 'no repeated items at ' + describe(anchor) +
            '; give one item of the list (a result\'s title) or the element that holds the items');
      }
      const out = paged(kind, [], offset, max, boxName(parentElement(items[0]) || items[0]));
      out.total = items.length;
      out.items = map(sliceArr(items, mathMin(offset, items.length), mathMin(offset + max, items.length)), listItem);
      return out;
    }
    const scope = anchor ? extractScope(anchor, kind) : [docBody(TOP_DOC) || docElement(TOP_DOC)];
    if (!scope) {
      throw fail('ELEMENT_NOT_FOUND', 'no ' + kind + ' in or around ' + describe(anchor) +
          '; extract ' + kind + ' without a target reads the whole page');
    }
    const where = anchor ? describeScope(scope) : 'the page';
    if (kind === 'tables') return extractTables(scope, cmd, offset, max, where);
    const items = kind === 'links' ? linkEntries(scope) : kind === 'images' ? imageEntries(scope)
        : kind === 'forms' ? formEntries(scope) : textLines(scope);
    return paged(kind, items, offset, max, where);
  }

  function paged(kind, items, offset, max, where) {
    const from = mathMin(offset, items.length);
    return { kind, scope: where, total: items.length, offset: from,
      items: sliceArr(items, from, mathMin(from + max, items.length)) };
  }

  /** The element the command names: an id of the map, a CSS selector, an XPath or shown text. */
  function extractAnchor(cmd) {
    if (hasOwn(cmd, 'id') && cmd.id !== null && cmd.id !== undefined) return lookup(cmd.id).el;
    const selector = param(cmd, 'selector', null);
    const xpath = param(cmd, 'xpath', null);
    const text = param(cmd, 'text', null);
    if (selector !== null || xpath !== null) {
      const found = xpath !== null ? resolveXPathDeep(str(xpath)) : resolvePiercing(str(selector));
      if (!found.length) {
        throw fail('ELEMENT_NOT_FOUND', 'nothing matches ' + (xpath !== null ? 'xpath(' + xpath + ')' : 'css(' + selector + ')'));
      }
      return found[0];
    }
    if (text !== null) {
      const m = textMatches(str(text), 'contains');
      if (!m.length) throw fail('ELEMENT_NOT_FOUND', 'no visible text "' + text + '" on the page');
      return m[0].el;
    }
    return null;
  }

  /** `ol.results`, `table#ledger`: an element by its tag and id or first class word. */
  function boxName(el) {
    const id = elId(el);
    const cls = classTokens(el);
    return tagOf(el) + (id ? '#' + id : cls.length ? '.' + cls[0] : '');
  }

  /** The part of the page read, for the answer: `aside "Related searches"`, `table#ledger`. */
  function describeScope(nodes) {
    const first = nodes[0];
    if (nodes.length > 1) {
      const before = previousElementSibling(first);
      const h = before ? (headingRank(before) ? before : composedMatches([before], HEADINGS, 1)[0]) : null;
      return h ? 'the section under "' + truncate(collapse(safeInnerText(h)), 60) + '"' : describe(first);
    }
    const s = boxName(first);
    const h = headingRank(first) ? first : composedMatches([first], HEADINGS + ', caption, legend', 1)[0];
    return h ? s + ' "' + truncate(collapse(safeInnerText(h)), 60) + '"' : s;
  }

  /**
   * Calls visit(el) for `root` (an element) and every element under it in composed order:
   * open shadow roots and same-origin frames where they stand. visit returns true to go on.
   */
  function walkComposed(root, visit) {
    let going = true;
    const inner = (el) => {
      const sr = shadowRoot(el);
      if (sr) walkTree(sr);
      const tag = localName(el);
      if (going && (tag === 'iframe' || tag === 'frame')) {
        const d = safeContentDocument(el);
        if (d && docBody(d)) walkTree(docBody(d), true);
      }
    };
    const walkTree = (top, withTop) => {
      if (withTop) {
        going = visit(top) && going;
        if (!going) return;
        inner(top);
      }
      const doc = nodeType(top) === DOCUMENT_NODE ? top : ownerDocument(top);
      const walker = docCreateTreeWalker(doc, top, 1 /* SHOW_ELEMENT */);
      for (let el = walker.nextNode(); el && going; el = walker.nextNode()) {
        going = visit(el) && going;
        if (going) inner(el);
      }
    };
    walkTree(root, nodeType(root) === ELEMENT_NODE);
  }

  /** Elements under `nodes` (and the nodes themselves) matching `selector`, in composed order; `stopAt` first. */
  function composedMatches(nodes, selector, stopAt) {
    const out = [];
    each(nodes, (n) => {
      if (stopAt && out.length >= stopAt) return;
      walkComposed(n, (el) => {
        if (matches(el, selector)) push(out, el);
        return !stopAt || out.length < stopAt;
      });
    });
    return out;
  }

  const SHOWN_CHECK = { visibilityProperty: true };

  /** Not hidden by display, visibility or opacity (itself or an ancestor). */
  function rendered(el) {
    return checkVisibility ? checkVisibility(el, VISIBILITY_CHECK) : visibilityOf(el, null, true).visible;
  }

  function headingRank(el) {
    const tag = tagOf(el);
    if (tag.length === 2 && tag[0] === 'h' && tag[1] >= '1' && tag[1] <= '6') return +tag[1];
    if (lc(attr(el, 'role')) === 'heading') return +attr(el, 'aria-level') || 2;
    return 0;
  }

  /**
   * What the anchor stands for: the anchor when it holds what is asked for; under a heading, the
   * heading's section; else the nearest ancestor that holds some. Null when nothing does.
   */
  function extractScope(anchor, kind) {
    const selector = HOLDS[kind];
    let heading = null;
    for (let a = anchor, depth = 0; a && depth < 3 && !heading; a = composedParent(a), depth++) {
      if (headingRank(a)) heading = a;
    }
    if (heading) {
      const section = headingSection(heading);
      if (section && (kind === 'text' || composedMatches(section, selector, 1).length)) return section;
    }
    if (kind === 'text' || composedMatches([anchor], selector, 1).length) return [anchor];
    for (let a = composedParent(anchor); a; a = composedParent(a)) {
      if (composedMatches([a], selector, 1).length) return [a];
    }
    return null;
  }

  /**
   * A heading's section: the sectioning element it is the first heading of, else the siblings
   * after it (or after the wrapper it sits alone in) up to the next heading of its rank or higher.
   */
  function headingSection(h) {
    const rank = headingRank(h);
    for (let a = composedParent(h), depth = 0; a && depth < 4; a = composedParent(a), depth++) {
      if (SECTIONING[tagOf(a)] || SECTION_ROLES[lc(attr(a, 'role'))]) {
        const first = composedMatches([a], HEADINGS, 1)[0];
        if (first === h) return [a];
        break;
      }
    }
    let start = h;
    while (parentElement(start) && children(parentElement(start)).length === 1 &&
        tagOf(parentElement(start)) !== 'body') {
      start = parentElement(start);
    }
    const endsIt = (el) => {
      const r = headingRank(el);
      if (r && r <= rank) return true;
      return find(composedMatches([el], HEADINGS, 0), (x) => headingRank(x) <= rank) !== null;
    };
    const nodes = [];
    for (let s = nextElementSibling(start); s && !endsIt(s); s = nextElementSibling(s)) push(nodes, s);
    return nodes.length ? nodes : null;
  }

  function hrefOf(el) {
    try {
      return str(tagOf(el) === 'area' ? B.areaHref(el) : B.anchorHref(el));
    } catch (e) {
      return attr(el, 'href');
    }
  }

  /** The address an image shows (the browser's choice among srcset), else its src attribute. */
  function imageSrc(img) {
    try {
      return str(B.imgSrc(img)) || attr(img, 'src');
    } catch (e) {
      return attr(img, 'src');
    }
  }

  /** Visible links: {text, href}, each text and address once. */
  function linkEntries(nodes) {
    const cache = newVisibilityCache();
    const seen = new B.Set();
    const out = [];
    each(composedMatches(nodes, HOLDS.links), (el) => {
      if (!visibilityOf(el, cache, true).visible) return;
      const href = hrefOf(el);
      if (!href || reTest(/^javascript:/i, href)) return;
      const text = truncate(contentText(el) || collapse(attr(el, 'aria-label') || attr(el, 'title')), TEXT_MAX * 2);
      const key = text + '\n' + href;
      if (setHas(seen, key)) return;
      setAdd(seen, key);
      push(out, { text, href });
    });
    return out;
  }

  /** Visible images of at least 8 by 8 pixels (no tracking pixels): {alt, src, width, height}. */
  function imageEntries(nodes) {
    const cache = newVisibilityCache();
    const out = [];
    each(composedMatches(nodes, HOLDS.images), (el) => {
      const vis = visibilityOf(el, cache, false);
      if (!vis.visible || vis.rect.width < 8 || vis.rect.height < 8) return;
      const isImg = tagOf(el) === 'img';
      const src = isImg ? imageSrc(el) : '';
      const alt = collapse(isImg ? attr(el, 'alt') || attr(el, 'title') : accessibleName(el, 'image'));
      push(out, { alt, src, width: round(vis.rect.width), height: round(vis.rect.height) });
    });
    return out;
  }

  /** The document's title, language, canonical address and <meta> name/property/itemprop entries. */
  function metaEntries() {
    const out = [];
    const title = collapse(docTitle(TOP_DOC));
    if (title) push(out, { name: 'title', content: title });
    const lang = attr(docElement(TOP_DOC), 'lang');
    if (lang) push(out, { name: 'lang', content: lang });
    each(queryAll(TOP_DOC, 'link[rel~=canonical][href]'), (l) => push(out, { name: 'canonical', content: attr(l, 'href') }));
    each(queryAll(TOP_DOC, 'meta[content]'), (m) => {
      const name = attr(m, 'name') || attr(m, 'property') || attr(m, 'itemprop');
      if (name) push(out, { name, content: attr(m, 'content') });
    });
    return out;
  }

  /** The scope's text as a person reads it, one line per block, empty lines dropped. */
  function textLines(nodes) {
    const out = [];
    each(nodes, (n) => {
      if (!rendered(n)) return;
      each(strSplit(composedText(n), '\n'), (line) => {
        const t = collapse(line);
        if (t) push(out, truncate(t, LINE_MAX));
      });
    });
    return out;
  }

  /** Forms (and fields outside any form): {name, action, method, fields, buttons}. */
  function formEntries(nodes) {
    const cache = newVisibilityCache();
    const groups = [];
    const byForm = new B.Map();
    const groupOf = (form) => {
      let g = mapGet(byForm, form);
      if (!g) {
        g = { name: form ? formName(form) : '(outside any form)', action: '', method: '', fields: [], buttons: [] };
        if (form) {
          try {
            g.action = str(B.formAction(form));
            g.method = str(B.formMethod(form));
          } catch (e) {
            g.action = attr(form, 'action');
          }
        }
        mapSet(byForm, form, g);
        push(groups, g);
      }
      return g;
    };
    each(composedMatches(nodes, 'form'), (f) => { if (visibilityOf(f, cache, true).visible) groupOf(f); });
    each(composedMatches(nodes, 'input, select, textarea, button'), (el) => {
      const tag = tagOf(el);
      const type = lc(attr(el, 'type'));
      // Styled checkboxes and radios keep their native input transparent or clipped: rendered is enough.
      const check = type === 'checkbox' || type === 'radio';
      if (type === 'hidden') return;
      if (check ? checkVisibility && !checkVisibility(el, SHOWN_CHECK) : !visibilityOf(el, cache, true).visible) return;
      const form = closestForm(el);
      const g = groupOf(form);
      if (tag === 'button' || BUTTON_INPUTS[type]) {
        const name = accessibleName(el, 'button');
        if (name) push(g.buttons, truncate(name, TEXT_MAX));
        return;
      }
      push(g.fields, fieldEntry(el, tag, type));
    });
    return filter(groups, (g) => g.fields.length || g.buttons.length);
  }

  function closestForm(el) {
    const owner = attr(el, 'form');
    if (owner) {
      const byId = byIdInRoot(el, owner);
      if (byId && tagOf(byId) === 'form') return byId;
    }
    for (let a = composedParent(el); a; a = composedParent(a)) if (tagOf(a) === 'form') return a;
    return null;
  }

  function formName(form) {
    const named = collapse(attr(form, 'aria-label')) || labelledByText(form);
    if (named) return named;
    const h = composedMatches([form], HEADINGS + ', legend', 1)[0];
    if (h) return truncate(collapse(safeInnerText(h)), TEXT_MAX);
    return attr(form, 'name') || attr(form, 'id') || '';
  }

  function fieldEntry(el, tag, type) {
    const kind = tag === 'input' ? 'input' : tag;
    const f = { label: truncate(accessibleName(el, kind), TEXT_MAX),
      type: tag === 'input' ? 'input/' + (type || 'text') : tag, name: attr(el, 'name') || attr(el, 'id') };
    if (hasAttribute(el, 'required') || attr(el, 'aria-required') === 'true') f.required = true;
    if (type === 'checkbox' || type === 'radio') {
      f.checked = !!inputChecked(el);
      const v = attr(el, 'value');
      if (v && v !== 'on') f.value = v;
    } else if (tag === 'select') {
      const chosen = [];
      const options = [];
      each(selectOptions(el), (o) => {
        const t = collapse(optionText(o));
        push(options, t);
        if (optionSelected(o)) push(chosen, t);
      });
      f.value = join(chosen, ', ');
      f.options = sliceArr(options, 0, mathMin(options.length, 50));
    } else {
      f.value = maskIfPassword(el, rawValue(el, tag, type === 'password' ? 'input' : tag) || '');
    }
    if (attr(el, 'placeholder')) f.placeholder = collapse(attr(el, 'placeholder'));
    if (attr(el, 'autocomplete')) f.autocomplete = attr(el, 'autocomplete');
    return f;
  }

  // ----- tables -----

  /**
   * Tables (<table>, ARIA table/grid) under the scope, layout tables left out (role
   * presentation, or a table that holds another without header cells). Each: {index, name,
   * columns, total_rows, offset, rows: [{column: cell}]}; rows `offset`..+`max` of each, or of
   * the `table`-th only (1-based).
   */
  function extractTables(scope, cmd, offset, max, where) {
    const all = filter(composedMatches(scope, HOLDS.tables), (t) => {
      const role = lc(attr(t, 'role'));
      if (role === 'presentation' || role === 'none') return false;
      if (!rendered(t)) return false;
      if (tagOf(t) === 'table' && firstOf(t, 'table') && !ownHeaderCell(t)) return false;
      return true;
    });
    const pick = mathFloor(countParam(cmd, 'table', 0));
    if (pick > all.length) {
      throw fail('ELEMENT_NOT_FOUND', 'no table ' + pick + ' in ' + where + ': it has ' + all.length);
    }
    const chosen = pick ? [all[pick - 1]] : sliceArr(all, 0, mathMin(all.length, EXTRACT_TABLES_MAX));
    const tables = map(chosen, (t, i) => {
      const grid = tagOf(t) === 'table' ? htmlTableGrid(t) : ariaTableGrid(t);
      const from = mathMin(offset, grid.rows.length);
      const rows = map(sliceArr(grid.rows, from, mathMin(from + max, grid.rows.length)), (r) => {
        const o = objectCreate(null);
        each(grid.columns, (c, j) => { o[c] = cellText(r[j]); });
        return o;
      });
      return { index: pick ? pick : i + 1, name: tableName(t), columns: grid.columns,
        total_rows: grid.rows.length, offset: from, rows };
    });
    return { kind: 'tables', scope: where, total: all.length, offset, tables };
  }

  /** True when one of the table's own rows (not a nested table's) has a <th>. */
  function ownHeaderCell(t) {
    const rowsEl = B.tableRows(t);
    for (let i = 0; i < rowsEl.length; i++) {
      if (find(B.rowCells(rowsEl[i]), (c) => tagOf(c) === 'th')) return true;
    }
    return false;
  }

  function tableName(t) {
    const named = collapse(attr(t, 'aria-label')) || labelledByText(t);
    if (named) return truncate(named, TEXT_MAX);
    const cap = tagOf(t) === 'table' ? B.tableCaption(t) : null;
    return cap ? truncate(collapse(safeInnerText(cap)), TEXT_MAX) : '';
  }

  function cellText(cell) {
    if (!cell) return '';
    // A select's text is every option: the cell shows the chosen one.
    const select = firstOf(cell, 'select');
    if (select) return truncate(collapse(optionText(selectOptions(select)[selectSelectedIndex(select)] || select)), CELL_MAX);
    let t = collapse(safeInnerText(cell));
    if (!t) {
      const field = firstOf(cell, 'input:not([type=hidden]), textarea');
      if (field) {
        const tag = tagOf(field);
        const type = lc(attr(field, 'type'));
        t = type === 'checkbox' || type === 'radio' ? (inputChecked(field) ? 'checked' : 'unchecked')
            : collapse(maskIfPassword(field, rawValue(field, tag, tag)));
      }
    }
    if (!t) t = contentText(cell);
    return truncate(t, CELL_MAX);
  }

  /** Header names made unique and never empty ("column 3"), in order. */
  function columnNames(texts, width) {
    const out = [];
    const used = new B.Set();
    for (let i = 0; i < width; i++) {
      let name = truncate(texts[i] || '', TEXT_MAX);
      if (!name) name = 'column ' + (i + 1);
      let unique = name;
      for (let n = 2; setHas(used, unique); n++) unique = name + ' ' + n;
      setAdd(used, unique);
      push(out, unique);
    }
    return out;
  }

  /**
   * An HTML table as columns and rows of cell elements (a spanned cell fills every slot it
   * covers, its text in the first). Header: the last row of <thead>, else a first row of <th>
   * only. Hidden rows (filtered out by the page) are left out.
   */
  function htmlTableGrid(t) {
    const rowsEl = B.tableRows(t);
    const head = B.tableHead(t);
    const grid = [];
    const carry = []; // column -> {cell, left}: a rowspan still running
    let headRows = 0;
    for (let i = 0; i < rowsEl.length; i++) {
      const tr = rowsEl[i];
      const cells = B.rowCells(tr);
      const slots = [];
      let col = 0;
      const fillCarry = () => {
        while (carry[col] && carry[col].left > 0) {
          slots[col] = carry[col].cell;
          carry[col].left--;
          col++;
        }
      };
      for (let c = 0; c < cells.length; c++) {
        fillCarry();
        const cell = cells[c];
        const span = mathMax(1, mathMin(1000, B.cellColSpan(cell) || 1));
        const down = mathMax(1, mathMin(65534, B.cellRowSpan(cell) || 1));
        for (let k = 0; k < span; k++) {
          slots[col + k] = cell;
          carry[col + k] = down > 1 ? { cell, left: down - 1 } : null;
        }
        col += span;
      }
      fillCarry();
      // Header rows: those of <thead>, else a first row of <th> only.
      const isHead = head ? nodeContains(head, tr)
          : grid.length === headRows && headRows === 0 && cells.length > 0 && !find(cells, (c) => tagOf(c) !== 'th');
      if (isHead) headRows = grid.length + 1;
      push(grid, { tr, slots, head: isHead });
    }
    let width = 0;
    each(grid, (g) => { width = mathMax(width, g.slots.length); });
    // A column's name: its header cells top to bottom ("Session Morning" under a spanning "Session").
    const names = [];
    for (let c = 0; c < width; c++) {
      const parts = [];
      let last = null;
      each(grid, (g) => {
        const cell = g.head ? g.slots[c] : null;
        if (!cell || cell === last) return;
        last = cell;
        const text = collapse(safeInnerText(cell)) || contentText(cell);
        if (text && !includes(parts, text)) push(parts, text);
      });
      push(names, join(parts, ' '));
    }
    const columns = columnNames(names, width);
    const rows = [];
    each(grid, (g) => {
      if (g.head || !rendered(g.tr)) return;
      push(rows, g.slots);
    });
    return { columns, rows };
  }

  /** An ARIA table or grid (role=row, columnheader, cell/gridcell/rowheader). */
  function ariaTableGrid(t) {
    const rowEls = filter(composedMatches([t], '[role=row]'), (r) => rendered(r));
    const cellsOf = (r) => filter(composedMatches([r], '[role=cell], [role=gridcell], [role=columnheader], [role=rowheader]'),
        (c) => c !== r);
    let header = [];
    const rows = [];
    let width = 0;
    each(rowEls, (r) => {
      const cells = cellsOf(r);
      width = mathMax(width, cells.length);
      const isHead = cells.length && !find(cells, (c) => lc(attr(c, 'role')) !== 'columnheader');
      if (isHead && !header.length) header = cells;
      else if (!isHead) push(rows, cells);
    });
    return { columns: columnNames(map(header, (c) => collapse(safeInnerText(c)) || contentText(c)), width), rows };
  }

  // ----- list: repeated items -----

  function classTokens(el) {
    const out = [];
    each(strSplit(collapse(attr(el, 'class')), ' '), (t) => {
      if (t && !reTest(/\d|^(active|selected|current|odd|even|first|last|hover|focus|open|show)$/i, t)) push(out, t);
    });
    return out;
  }

  /** Two elements built the same way: tag, role, and at least half their class words. */
  function alike(a, b) {
    if (tagOf(a) !== tagOf(b)) return false;
    const ra = attr(a, 'role');
    const rb = attr(b, 'role');
    if (ra && rb && ra !== rb) return false;
    const ca = classTokens(a);
    const cb = classTokens(b);
    if (!ca.length && !cb.length) return true;
    let common = 0;
    each(ca, (t) => { if (includes(cb, t)) common++; });
    return common * 2 >= mathMax(ca.length, cb.length);
  }

  function childElements(node) {
    const sr = nodeType(node) === ELEMENT_NODE ? shadowRoot(node) : null;
    const kids = nodeType(node) === ELEMENT_NODE ? children(node) : B.fragChildren(node);
    const out = [];
    each(kids, (k) => { if (tagOf(k) !== 'script' && tagOf(k) !== 'template' && rendered(k)) push(out, k); });
    if (!out.length && sr) return childElements(sr);
    return out;
  }

  /** The largest group of alike children of `node` when it is most of them (two at least), else null. */
  function alikeChildren(node) {
    const kids = childElements(node);
    if (kids.length < 2) return null;
    let best = null;
    each(kids, (k) => {
      if (best && includes(best, k)) return;
      const group = filter(kids, (o) => alike(o, k));
      if (!best || group.length > best.length) best = group;
    });
    return best.length >= 2 && best.length * 2 >= kids.length ? best : null;
  }

  /**
   * The repeated items the anchor belongs to: the anchor's own alike children (the anchor is the
   * list); else the nearest ancestor with alike siblings (the anchor is in an item); else a list
   * just after the anchor (a heading or a label above the list).
   */
  function listItemsOf(anchor) {
    const own = alikeChildren(anchor);
    if (own) return own;
    for (let a = anchor; a && tagOf(a) !== 'body'; a = composedParent(a)) {
      const p = parentNode(a);
      if (!p) break;
      const sibs = filter(childElements(p), (s) => alike(s, a));
      if (sibs.length >= 2) return sibs;
    }
    for (let a = anchor, depth = 0; a && depth < 3 && tagOf(a) !== 'body'; a = composedParent(a), depth++) {
      for (let s = nextElementSibling(a), n = 0; s && n < 3; s = nextElementSibling(s), n++) {
        const group = alikeChildren(s);
        if (group) return group;
      }
    }
    return null;
  }

  /** One item: {title, href, text, image}: its heading (else its first link or line), where it leads. */
  function listItem(el) {
    const heading = composedMatches([el], HEADINGS, 1)[0] || null;
    const links = filter(composedMatches([el], 'a[href]'), (a) => rendered(a));
    const headingLink = heading ? find(links, (a) => composedContains(heading, a) || composedContains(a, heading)) : null;
    const link = headingLink || links[0] || (tagOf(el) === 'a' ? el : null);
    const lines = textLines([el]);
    const title = truncate(heading ? collapse(safeInnerText(heading)) : link ? contentText(link) : lines[0] || '', TEXT_MAX * 2);
    const out = { title, text: truncate(join(lines, ' \u00b7 '), ITEM_TEXT_MAX) };
    if (link) out.href = hrefOf(link);
    const img = composedMatches([el], 'img', 1)[0];
    if (img) out.image = imageSrc(img);
    return out;
  }

  // ===============================================================================================
  // 15. Dispatcher.
  // ===============================================================================================
  const COMMANDS = objectCreate(null);
  COMMANDS.scan = cmdScan;
  COMMANDS.click = cmdClick;
  COMMANDS.point = cmdPoint;
  COMMANDS.guard_result = cmdGuardResult;
  COMMANDS.type = cmdType;
  COMMANDS.clear = cmdClear;
  COMMANDS.check = (cmd) => setChecked(cmd, true);
  COMMANDS.uncheck = (cmd) => setChecked(cmd, false);
  COMMANDS.select = cmdSelect;
  COMMANDS.scroll = cmdScroll;
  COMMANDS.seek = cmdSeek;
  COMMANDS.reveal = cmdReveal;
  COMMANDS.focus = cmdFocus;
  COMMANDS.hover = cmdHover;
  COMMANDS.drag = cmdDrag;
  COMMANDS.submit = cmdSubmit;
  COMMANDS.get_value = cmdGetValue;
  COMMANDS.key_listeners = cmdKeyListeners;
  COMMANDS.file_input_for = cmdFileInputFor;
  COMMANDS.get_text = cmdGetText;
  COMMANDS.exists = cmdExists;
  COMMANDS.query = (cmd) => withScanMemo(() => cmdQuery(cmd));
  COMMANDS.get_selector = cmdGetSelector;
  COMMANDS.find_text = (cmd) => withScanMemo(() => cmdFindText(cmd));
  COMMANDS.extract = (cmd) => withScanMemo(() => cmdExtract(cmd));
  COMMANDS.wait_for = cmdWaitFor;
  COMMANDS.wait_change = cmdWaitChange;
  COMMANDS.wait_animations = cmdWaitAnimations;
  COMMANDS.wait_timers = cmdWaitTimers;
  COMMANDS.wait_quiet = cmdWaitQuiet;
  COMMANDS.watched = cmdWatched;
  COMMANDS.wait_upgrades = cmdWaitUpgrades;
  COMMANDS.execute = cmdExecute;
  COMMANDS.version = cmdVersion;

  function commandNames() { return objectKeys(COMMANDS); }

  function parseCommand(command) {
    let cmd = command;
    if (typeof command === 'string') {
      try {
        cmd = jsonParse(command);
      } catch (e) {
        throw fail('SCRIPT_ERROR', 'command is not valid JSON: ' + errorText(e));
      }
    }
    if (!cmd || typeof cmd !== 'object' || isArray(cmd)) {
      throw fail('SCRIPT_ERROR', 'command must be a JSON object like {"cmd":"scan"}');
    }
    return cmd;
  }

  async function handle(command) {
    const t0 = now();
    let name = '';
    let response;
    try {
      const cmd = parseCommand(command);
      name = str(param(cmd, 'cmd', ''));
      const fn = COMMANDS[name];
      if (!fn) {
        throw fail('UNKNOWN_COMMAND', 'unknown command "' + name + '"; valid commands: ' +
            join(commandNames(), ', '));
      }
      siblingCache = null;
      const data = await fn(cmd);
      siblingCache = null;
      response = { ok: true, data, timing: { ms: round(now() - t0) } };
    } catch (e) {
      response = e && e.tag === ERROR_TAG
          ? { ok: false, code: e.code, error: e.message }
          : { ok: false, code: 'SCRIPT_ERROR',
            error: 'scanner error in ' + (name || 'command') + ': ' + errorText(e) };
    }
    try {
      return serialize(response);
    } catch (e) {
      return '{"ok":false,"code":"SCRIPT_ERROR","error":"scanner could not serialize the response"}';
    }
  }

  /**
   * The live element behind an id of the last scan, or null: for backends that must hand the
   * element itself to the browser (CDP DOM.setFileInputFiles, WebDriver element references).
   */
  function element(id) {
    try {
      return lookup(id).el;
    } catch (e) {
      return null;
    }
  }

  return { handle, element, protocolVersion: PROTOCOL_VERSION, version: SCANNER_VERSION };
})()
