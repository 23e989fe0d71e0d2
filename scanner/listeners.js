// Lemmascope listener registry: which elements a page gave click-like listeners. It runs in the
// page's own (main) world, before page scripts where the backend can arrange it (CDP:
// Page.addScriptToEvaluateOnNewDocument; chromedriver: the same through goog/cdp/execute), else
// when the scanner is injected (WebDriver). The scanner, often in another world (a CDP isolated
// world), learns the elements over DOM events, which cross worlds where JS objects do not:
//
//   scanner -> document:  "<channel>-q"   tell me the elements registered since the last query
//                         "<channel>-qa"  tell me every element still registered (a new scanner)
//   registry -> element:  "<channel>-on"  this element has click-like listeners (composed, so a
//                         "<channel>-off" it has none any more    capture listener on the
//   registry -> document: "<channel>-end" answered                 document sees it)
//   installer -> document "<channel>-ping", registry answers "<channel>-pong": already installed.
//   scanner -> element:   "<channel>-kq"  does anything on your path listen to key events?
//   registry -> document: "<channel>-keys" or "<channel>-nokeys" (an engine types such a field
//                         in one step: nothing could tell keys from the text committed at once)
//   scanner -> element:   "<channel>-pq"  would anything on your path hear a click on you, or
//                                          keys and input typed into you?
//                         "<channel>-lq"   would anything on your path hear the mouse leave you?
//   registry -> document: "<channel>-pquiet" or "<channel>-ploud", "<channel>-lquiet" or
//                         "<channel>-lloud" (an engine then focuses such a field without the press)
//   scanner -> document:  "<channel>-tarm" an action starts: follow the work its code schedules
//                         "<channel>-tq"   registry answers "<channel>-tpending" or "<channel>-tnone"
//                         "<channel>-tw"   registry answers "<channel>-tdone" when none is pending
//                         "<channel>-wq"   registry answers "<channel>-wdone" when all the work the
//                                          action's code scheduled was followed and has run, else
//                                          "<channel>-wopen"
//                         "<channel>-rq"   (after "-tq") did a listener of the page hear the
//                                          events of the action "-tarm" started?
//                                          registry answers "<channel>-heard" or "<channel>-unheard"
//
// `channel` is a random token the backend makes per session: a page that does not know it sees
// no event it could listen to. What a page can notice is in scanner/README.md ("Listener
// registry"). The file is one function expression: the backend evaluates `(<file>)("<token>")`.
(function (channel) {
  'use strict';
  const W = globalThis;
  const doc = W.document;
  if (!doc || typeof channel !== 'string' || !channel) return;
  // Everything used later is captured now (at document start a page has not touched anything).
  const apply = Reflect.apply;
  const construct = Reflect.construct;
  const reflectGet = Reflect.get;
  const getOwn = Object.getOwnPropertyDescriptor;
  const defineProp = Object.defineProperty;
  const objectCreate = Object.create;
  const createNull = () => objectCreate(null);
  const ProxyC = W.Proxy;
  const ET = W.EventTarget && W.EventTarget.prototype;
  if (!ET || !ProxyC) return;
  const addOriginal = ET.addEventListener;
  const removeOriginal = ET.removeEventListener;
  const dispatch = ET.dispatchEvent;
  const EventC = W.Event;
  const nodeTypeOf = getOwn(W.Node.prototype, 'nodeType').get;
  const connectedOf = getOwn(W.Node.prototype, 'isConnected').get;
  const qsaOf = W.Element.prototype.querySelectorAll;
  const firstElementOf = getOwn(W.Element.prototype, 'firstElementChild').get;
  const nextElementOf = getOwn(W.Element.prototype, 'nextElementSibling').get;
  // Installed after the document's first scripts may have run: WebDriver injects it with the
  // scanner, and the extension's script mode as the document commits, which races the parser
  // (a script in the head may have run before the body exists). At a true document start (CDP's
  // new-document script) the parser has made no script element yet.
  const scriptsOf = getOwn(W.Document.prototype, 'scripts').get;
  const late = doc.readyState !== 'loading' || !!doc.body || apply(scriptsOf, doc, []).length > 0;
  const objectKeys = Object.keys;
  const strStarts = String.prototype.startsWith;
  const strSlice = String.prototype.slice;
  const WeakMapC = W.WeakMap;
  const wmGet = W.WeakMap.prototype.get;
  const wmSet = W.WeakMap.prototype.set;
  const composedPathOf = W.Event.prototype.composedPath;
  const tagNameOf = getOwn(W.Element.prototype, 'tagName').get;
  const editableDesc = W.HTMLElement && getOwn(W.HTMLElement.prototype, 'isContentEditable');
  const editableOf = editableDesc && editableDesc.get;
  const WeakRefC = typeof W.WeakRef === 'function' ? W.WeakRef : null;
  const deref = WeakRefC ? W.WeakRef.prototype.deref : null;

  const on = (target, type, fn) => apply(addOriginal, target, [type, fn, true]);
  const fire = (target, type) => apply(dispatch, target, [new EventC(type, { bubbles: false, composed: true })]);

  // Installed already in this document (at document start, and now again by a WebDriver scanner)?
  let installed = false;
  const pong = () => { installed = true; };
  on(doc, channel + '-pong', pong);
  fire(doc, channel + '-ping');
  apply(removeOriginal, doc, [channel + '-pong', pong, true]);
  if (installed) return;

  // Event types a person's press produces (pointer, mouse, touch); listeners for them make an
  // element something to click.
  const PRESS = { click: 1, dblclick: 1, auxclick: 1, mousedown: 1, mouseup: 1, pointerdown: 1,
    pointerup: 1, touchstart: 1, touchend: 1 };
  // element -> [[type, listener, capture], ...]: the press listeners it has now. The DOM ignores
  // a second identical registration and removeEventListener takes one off: mirror both.
  const entries = new WeakMapC();
  let order = []; // elements (WeakRefs where available) in the order they got their first listener
  let offs = []; // elements that lost their last one since the last query
  let told = 0; // `order` entries already reported
  let detached = []; // registered while outside the document: reported once they are in it
  let compactAt = 256; // `order` length at which dead entries are dropped

  const isElement = (target) => {
    try {
      return apply(nodeTypeOf, target, []) === 1;
    } catch (e) {
      return false; // window, XMLHttpRequest, ...: not a node
    }
  };
  const captureOf = (options) => (options !== null && typeof options === 'object' ? !!options.capture : !!options);
  const find = (list, type, fn, capture) => {
    for (let i = 0; i < list.length; i++) {
      const e = list[i];
      if (e[0] === type && e[1] === fn && e[2] === capture) return i;
    }
    return -1;
  };
  const hold = (el) => (WeakRefC ? new WeakRefC(el) : el);
  const held = (ref) => (WeakRefC ? apply(deref, ref, []) : ref);

  // element -> {types: {type: 1}, n}: every event type it listens to. Frameworks that delegate
  // all events to their root container (React) listen to dozens of types there: such an element
  // is a root, not something to click.
  const ROOT_TYPES = 12;
  const kinds = new WeakMapC();
  const isRoot = (el) => {
    const k = apply(wmGet, kinds, [el]);
    return !!k && k.n >= ROOT_TYPES;
  };

  function noteType(target, type) {
    let k = apply(wmGet, kinds, [target]);
    if (!k) {
      k = { types: createNull(), n: 0 };
      apply(wmSet, kinds, [target, k]);
    }
    if (k.types[type] === 1) return;
    k.types[type] = 1;
    k.n++;
    if (k.n === ROOT_TYPES) {
      offs[offs.length] = hold(target);
      frameworkRoots[frameworkRoots.length] = hold(target);
    }
  }

  // Behind a framework root, handlers live on the elements as framework data: React keeps an
  // element's props under "__reactProps$<id>" (the id of its root's "__reactContainer$<id>"),
  // Svelte 5 delegated handlers under "__click". At each query the registry reads them for the
  // elements under the roots (one property read per element) and reports those that have a
  // press handler like listeners.
  const HANDLER_PROPS = ['onClick', 'onMouseDown', 'onPointerDown', 'onMouseUp', 'onPointerUp',
    'onTouchStart', 'onDoubleClick'];
  const DELEGATED = ['__click', '__mousedown', '__pointerdown', '__pointerup', '__mouseup'];
  let frameworkRoots = [];
  const frameworkMarked = new WeakMapC(); // element -> its root's props key ("-": none) while it counts
  let frameworkSent = []; // elements reported through framework data

  function reactPropsKey(root) {
    let keys = [];
    try {
      keys = objectKeys(root);
    } catch (e) {
      keys = [];
    }
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i];
      if (typeof k === 'string' && apply(strStarts, k, ['__reactContainer$'])) return '__reactProps$' + apply(strSlice, k, [17]);
    }
    return '';
  }

  function hasFrameworkHandler(el, propsKey) {
    try {
      const props = propsKey ? el[propsKey] : null;
      if (props && typeof props === 'object') {
        for (let i = 0; i < HANDLER_PROPS.length; i++) if (typeof props[HANDLER_PROPS[i]] === 'function') return true;
      }
      for (let i = 0; i < DELEGATED.length; i++) if (typeof el[DELEGATED[i]] === 'function') return true;
    } catch (e) {
      // a property getter that throws: no handler we can know of
    }
    return false;
  }

  // A registry injected after the page's scripts (WebDriver) has not seen the roots register
  // their listeners: React containers are found by their "__reactContainer$" key among the
  // body's children and grandchildren.
  const rootsFound = new WeakMapC();

  function findReactRoots() {
    const body = doc.body;
    if (!body) return;
    const look = (el, depth) => {
      for (let c = apply(firstElementOf, el, []); c; c = apply(nextElementOf, c, [])) {
        if (!apply(wmGet, rootsFound, [c]) && reactPropsKey(c)) {
          apply(wmSet, rootsFound, [c, true]);
          frameworkRoots[frameworkRoots.length] = hold(c);
        }
        if (depth < 1) look(c, depth + 1);
      }
    };
    try {
      look(body, 0);
    } catch (e) {
      // nothing to find
    }
  }

  /** Elements under the framework roots whose handlers appeared or went since the last query. */
  function frameworkChanges() {
    const on = [];
    const off = [];
    const kept = [];
    for (let i = 0; i < frameworkSent.length; i++) {
      const el = held(frameworkSent[i]);
      if (!el) continue;
      const key = apply(wmGet, frameworkMarked, [el]); // its root's props key (or "-")
      if (key && apply(connectedOf, el, []) && hasFrameworkHandler(el, key === '-' ? '' : key)) {
        kept[kept.length] = frameworkSent[i];
      } else {
        apply(wmSet, frameworkMarked, [el, '']);
        off[off.length] = el;
      }
    }
    frameworkSent = kept;
    const live = [];
    for (let r = 0; r < frameworkRoots.length; r++) {
      const root = held(frameworkRoots[r]);
      if (!root || !apply(connectedOf, root, [])) continue;
      live[live.length] = frameworkRoots[r];
      const propsKey = reactPropsKey(root);
      let all = null;
      try {
        all = apply(qsaOf, root, ['*']);
      } catch (e) {
        all = null;
      }
      const n = all ? all.length : 0;
      for (let i = 0; i < n; i++) {
        const el = all[i];
        if (apply(wmGet, frameworkMarked, [el]) || !hasFrameworkHandler(el, propsKey)) continue;
        apply(wmSet, frameworkMarked, [el, propsKey || '-']);
        frameworkSent[frameworkSent.length] = hold(el);
        on[on.length] = el;
      }
    }
    frameworkRoots = live;
    return { on, off };
  }

  // Event types typing produces besides the value itself. Key events (and their handler
  // properties) come only from keys: a listener for one of them anywhere on a field's path
  // (window and document included) means the keys must be typed one by one. The others come
  // from text committed in one step too, only fewer of them (one input event for the whole
  // text, as a paste or an input method gives): the press question below still counts them.
  // Never taken back on removal: an error only costs speed.
  const KEY_EVENTS = { keydown: 1, keyup: 1, keypress: 1 };
  const KEY_EVENT_PROPS = ['onkeydown', 'onkeyup', 'onkeypress'];
  const KEYISH = { keydown: 1, keyup: 1, keypress: 1, beforeinput: 1, input: 1, textInput: 1, textinput: 1,
    compositionstart: 1, compositionupdate: 1, compositionend: 1, selectionchange: 1, selectstart: 1 };
  const KEY_PROPS = ['onkeydown', 'onkeyup', 'onkeypress', 'onbeforeinput', 'oninput', 'onselectionchange',
    'onselectstart', 'oncompositionstart', 'oncompositionupdate', 'oncompositionend'];

  // target (element, document, window, ...) -> {type: 1}: every type it ever got a listener for
  // (never taken back: an error only costs speed), for "-kq" and "-rq".
  const listenedTypes = new WeakMapC();

  function added(target, type, fn, options) {
    if (typeof type !== 'string' || (typeof fn !== 'function' && (fn === null || typeof fn !== 'object'))) return;
    let types = apply(wmGet, listenedTypes, [target]);
    if (!types) {
      types = createNull();
      apply(wmSet, listenedTypes, [target, types]);
    }
    types[type] = 1;
    if (!isElement(target)) return;
    noteType(target, type);
    if (PRESS[type] !== 1) return;
    let list = apply(wmGet, entries, [target]);
    if (!list) {
      list = [];
      apply(wmSet, entries, [target, list]);
    }
    const capture = captureOf(options);
    if (find(list, type, fn, capture) !== -1) return;
    list[list.length] = [type, fn, capture];
    if (list.length === 1) order[order.length] = hold(target);
  }

  function removed(target, type, fn, options) {
    if (typeof type !== 'string' || PRESS[type] !== 1) return;
    const list = apply(wmGet, entries, [target]);
    if (!list || !list.length) return;
    const i = find(list, type, fn, captureOf(options));
    if (i === -1) return;
    for (let j = i; j < list.length - 1; j++) list[j] = list[j + 1];
    list.length = list.length - 1;
    if (!list.length) offs[offs.length] = hold(target);
  }

  const listening = (el) => {
    const list = el ? apply(wmGet, entries, [el]) : null;
    return (!!list && list.length > 0 && !isRoot(el)) || (!!el && !!apply(wmGet, frameworkMarked, [el]));
  };

  // The wrappers are Proxies of the originals: same name, length and native-looking source.
  const wrap = (fn, before) => new ProxyC(fn, {
    apply(target, self, args) {
      try {
        before(self, args[0], args[1], args[2]);
      } catch (e) {
        // never in the page's way
      }
      return apply(target, self, args);
    },
  });
  const replaceMethod = (owner, name, fn) => {
    const d = getOwn(owner, name);
    if (!d || d.value !== fn) return;
    defineProp(owner, name, { value: fn === addOriginal ? wrap(fn, added) : wrap(fn, removed),
      writable: d.writable, enumerable: d.enumerable, configurable: d.configurable });
  };
  replaceMethod(ET, 'addEventListener', addOriginal);
  replaceMethod(ET, 'removeEventListener', removeOriginal);

  // el.onclick = fn (the content attribute is in the DOM, where the scanner reads it).
  const handlerProps = [['onclick', 'click'], ['onmousedown', 'mousedown'], ['onpointerdown', 'pointerdown']];
  const owners = [W.HTMLElement && W.HTMLElement.prototype, W.SVGElement && W.SVGElement.prototype];
  const PROP = {}; // the "listener" of a handler property: one per element and type
  // Replaces the setter of owner[name] with a Proxy that calls before(self, value) first.
  const replaceSetter = (owner, name, before) => {
    const d = owner ? getOwn(owner, name) : null;
    if (!d || typeof d.set !== 'function' || !d.configurable) return;
    const set = new ProxyC(d.set, {
      apply(target, self, args) {
        try {
          before(self, args[0]);
        } catch (e) {
          // never in the page's way
        }
        return apply(target, self, args);
      },
    });
    defineProp(owner, name, { get: d.get, set, enumerable: d.enumerable, configurable: true });
  };
  for (let o = 0; o < owners.length; o++) {
    for (let p = 0; p < handlerProps.length; p++) {
      const type = handlerProps[p][1];
      replaceSetter(owners[o], handlerProps[p][0], (self, fn) => {
        if (typeof fn === 'function') added(self, type, PROP, false);
        else removed(self, type, PROP, false);
      });
    }
  }

  // Queries. Answers synchronously, inside the scanner's dispatchEvent.
  function tell(ref, notYet) {
    const el = held(ref);
    if (!el || !listening(el)) return;
    // An event on an element outside the document reaches no document listener: try later.
    if (!apply(connectedOf, el, [])) notYet[notYet.length] = ref;
    else fire(el, channel + '-on');
  }

  function answer(all) {
    const notYet = [];
    for (let i = 0; i < detached.length; i++) tell(detached[i], notYet);
    for (let i = all ? 0 : told; i < order.length; i++) tell(order[i], notYet);
    detached = notYet;
    for (let i = 0; i < offs.length; i++) {
      const el = held(offs[i]);
      if (el && !listening(el)) fire(el, channel + '-off');
    }
    offs = [];
    if (late) findReactRoots();
    if (frameworkRoots.length || frameworkSent.length) {
      const changes = frameworkChanges();
      for (let i = 0; i < changes.off.length; i++) if (!listening(changes.off[i])) fire(changes.off[i], channel + '-off');
      for (let i = 0; i < changes.on.length; i++) fire(changes.on[i], channel + '-on');
    }
    // Forget collected and listener-less elements once the list has doubled (elements that get
    // listeners again are added again).
    if (order.length > compactAt) {
      const kept = [];
      for (let i = 0; i < order.length; i++) {
        const el = held(order[i]);
        if (el && listening(el)) kept[kept.length] = order[i];
      }
      order = kept;
      compactAt = 2 * kept.length > 256 ? 2 * kept.length : 256;
    }
    told = order.length;
    fire(doc, channel + '-end');
  }
  on(doc, channel + '-q', () => answer(false));
  on(doc, channel + '-qa', () => answer(true));
  on(doc, channel + '-ping', () => fire(doc, channel + '-pong'));

  // Key listeners on the queried field's path. A registry that came after the page's first
  // scripts has not seen what they registered: it says keys. `types`/`props`: which listeners
  // count. `editingHosts`: an element the page made editable (contenteditable) counts as a field.
  function keysOn(path, types, props, editingHosts) {
    if (late || !path.length) return true;
    // A field in a closed shadow tree is seen here as its host: what listens inside is unknown.
    let tag = '';
    let editable = false;
    try {
      tag = apply(tagNameOf, path[0], []);
      editable = editingHosts && !!editableOf && apply(editableOf, path[0], []) === true;
    } catch (e) {
      return true;
    }
    if (tag !== 'INPUT' && tag !== 'TEXTAREA' && !editable) return true;
    // The path of a field in the document ends with the document and the window.
    for (let i = 0; i < path.length; i++) if (listensFor(path[i], types, props)) return true;
    return false;
  }

  function listensFor(node, table, props) {
    const types = apply(wmGet, listenedTypes, [node]);
    if (types) for (const type in types) if (table[type] === 1) return true;
    for (let p = 0; p < props.length; p++) {
      try {
        if (node[props[p]] != null) return true;
      } catch (e) {
        return true; // a getter that throws: unknown
      }
    }
    return false;
  }
  // A question about the composed path of the event the scanner dispatches on an element:
  // answers `<yes>` when `test(path)` holds or cannot be told (a getter that throws), else `<no>`.
  const askPath = (question, yes, no, test) => on(doc, channel + question, (e) => {
    let answer = true;
    try {
      answer = test(apply(composedPathOf, e, []));
    } catch (err) {
      answer = true;
    }
    fire(doc, channel + (answer ? yes : no));
  });
  // The key question: would a listener of the page tell keys from the text committed in one step?
  askPath('-kq', '-keys', '-nokeys', (path) => keysOn(path, KEY_EVENTS, KEY_EVENT_PROPS, true));

  // Press question (issue 17's typing): would a listener of the page hear the focusing click on
  // the queried field (pointer and mouse events, and the selection it starts), or the keys and
  // input typed into it? Quiet, focusing the field and selecting its text from a script is the
  // same for the page as pressing it: the focus events are the same either way. "-lq" asks it of
  // the element the mouse is over now, for the events of the mouse leaving it. Whatever can hide
  // a listener (a registry that came late, a closed shadow root) makes it loud.
  // (The selection's selectstart and selectionchange are counted with keys and input here.)
  const PRESS_TYPES = ['pointerover', 'pointerenter', 'pointermove', 'pointerrawupdate', 'pointerdown', 'pointerup',
    'gotpointercapture', 'lostpointercapture', 'mouseover', 'mouseenter', 'mousemove', 'mousedown', 'mouseup',
    'click', 'select', 'dragstart'];
  const LEAVE_TYPES = ['pointerout', 'pointerleave', 'mouseout', 'mouseleave'];
  const heardOnPath = (path, types) => {
    for (let i = 0; i < path.length; i++) {
      for (let t = 0; t < types.length; t++) if (hears(path[i], types[t])) return true;
    }
    return false;
  };
  askPath('-pq', '-ploud', '-pquiet', (path) => keysOn(path, KEYISH, KEY_PROPS, false) || heardOnPath(path, PRESS_TYPES));
  askPath('-lq', '-lloud', '-lquiet', (path) => late || !path.length || heardOnPath(path, LEAVE_TYPES));

  // Heard (issue 17's settle): from "-tarm" to "-tq", did any event an action produces (the
  // press, the focus moving, the text going in) reach a listener of the page on its way? The
  // registry's capture listeners on the window see each such event first, with its whole
  // composed path: a node on it with a listener for that type (or a handler property, content
  // attributes included), or a shadow host whose closed tree the path cannot show, means the
  // page heard it. Unheard, the page ran no code for the action: the engine need not wait for a
  // reaction. A registry that came after the page's first scripts always says heard.
  const HEARD_TYPES = ['pointerover', 'pointerenter', 'pointerout', 'pointerleave', 'pointermove', 'pointerdown',
    'pointerup', 'pointercancel', 'gotpointercapture', 'lostpointercapture', 'mouseover', 'mouseenter', 'mouseout',
    'mouseleave', 'mousemove', 'mousedown', 'mouseup', 'click', 'dblclick', 'auxclick', 'contextmenu',
    'focus', 'blur', 'focusin', 'focusout', 'DOMFocusIn', 'DOMFocusOut',
    'DOMActivate', 'keydown', 'keyup', 'keypress', 'beforeinput', 'input', 'textInput', 'change', 'select',
    'selectstart', 'selectionchange', 'compositionstart', 'compositionupdate', 'compositionend', 'submit', 'reset',
    'invalid', 'scroll', 'toggle'];
  const EP = W.Element && W.Element.prototype;
  const shadowRootOf = EP && getOwn(EP, 'shadowRoot') ? getOwn(EP, 'shadowRoot').get : null;
  const closedHosts = new WeakMapC(); // hosts of closed shadow roots made by attachShadow
  const attachOriginal = EP && EP.attachShadow;
  if (typeof attachOriginal === 'function' && shadowRootOf) {
    const d = getOwn(EP, 'attachShadow');
    if (d && d.value === attachOriginal && d.configurable) {
      defineProp(EP, 'attachShadow', { value: new ProxyC(attachOriginal, {
        apply(target, self, args) {
          const root = apply(target, self, args);
          try {
            if (apply(shadowRootOf, self, []) === null) apply(wmSet, closedHosts, [self, true]);
          } catch (e) {
            // never in the page's way
          }
          return root;
        },
      }), writable: d.writable, enumerable: d.enumerable, configurable: true });
    }
  }
  const strIncludes = String.prototype.includes;
  // A node whose own listeners (or inner ones, past a closed root) may hear an event of `type`.
  function hears(node, type) {
    const types = apply(wmGet, listenedTypes, [node]);
    if (types && types[type] === 1) return true;
    if (node['on' + type] != null) return true;
    if (!isElement(node)) return false;
    if (apply(wmGet, closedHosts, [node])) return true;
    // A custom element without an open root may hold a declarative closed one.
    return apply(strIncludes, apply(tagNameOf, node, []), ['-']) && apply(shadowRootOf, node, []) === null;
  }
  // The focus in a frame when the action starts: the frame's blur listeners, which this window
  // does not see, hear the focus leave.
  const activeOf = W.Document && getOwn(W.Document.prototype, 'activeElement') ? getOwn(W.Document.prototype, 'activeElement').get : null;
  const FRAMES = { IFRAME: 1, FRAME: 1, OBJECT: 1, EMBED: 1 };
  const focusInFrame = () => {
    try {
      const a = activeOf ? apply(activeOf, doc, []) : null;
      return !!a && FRAMES[apply(tagNameOf, a, [])] === 1;
    } catch (e) {
      return true;
    }
  };
  let heardArmed = false;
  let heard = false;
  // The path is walked from the window down. Below a shadow root (the one document fragment a
  // path that reaches the window can hold; its nodes come before it in the path) a listener runs with window.event undefined (DOM's "invocation target in shadow tree"),
  // as do those behind a closed root: what they schedule cannot be told from the page's own
  // work, so a listener there that hears the event makes the action's work open (below).
  const listenHeard = (e) => {
    if (!heardArmed) return;
    // An event dispatched by a script (the extension's script mode, the page's own dispatch):
    // the code after an await in its listeners runs once the dispatch has returned, with no
    // window.event; what it schedules until the next task is the action's too.
    if (!e.isTrusted) linger(0);
    if (heard && open) return;
    try {
      const path = apply(composedPathOf, e, []);
      const type = e.type;
      let shadow = false;
      for (let i = path.length - 1; i >= 0; i--) {
        const node = path[i];
        if (!shadow && node !== W && apply(nodeTypeOf, node, []) === 11) shadow = true;
        if (!hears(node, type)) continue;
        heard = true;
        if (shadow || apply(wmGet, closedHosts, [node])) {
          open = true;
          return;
        }
      }
    } catch (err) {
      heard = true; // a getter that throws: unknown
      open = true;
    }
  };
  for (let i = 0; i < HEARD_TYPES.length; i++) on(W, HEARD_TYPES[i], listenHeard);
  // "-tq" (the action's end, asked first in the same call) settles the answer and stops the
  // following: events after it are not the action's, and cost no path walk.
  let heardAnswer = true;
  const endHeard = () => {
    heardAnswer = late || !heardArmed || heard;
    heardArmed = false;
  };
  on(doc, channel + '-rq', () => {
    fire(doc, channel + (heardAnswer ? '-heard' : '-unheard'));
    heardAnswer = true; // asked once per action
  });

  // The action's work (issue 17's settle). From "-tarm" (the scanner, just before an action) on,
  // what the page's code schedules while it handles an event (window.event is the event: the
  // keystroke, the click, the focus moving, a message; also in the microtasks right after the
  // listener) is followed: a setTimeout of at most SHORT_TIMER_MS with a function (a debounced
  // filter that re-renders 300 ms after the last key, a menu shown a moment after a click), a
  // requestAnimationFrame or requestIdleCallback, a message on a MessageChannel port (React's
  // scheduler). So is what their callbacks schedule, and the code after an `await` in them (it
  // runs once the callback has returned: until the next task, what is scheduled is the callback's
  // work, "lingering"). Generations: what a listener schedules is the first, without limit (a
  // debounced field clears and sets a timer per key); what a callback of generation g schedules
  // is g + 1, up to MAX_GENERATIONS; a message's handler is of its post's generation (React's
  // scheduler posts the next chunk of work from each one). All but the first count against
  // MAX_FOLLOWED. Each is pending until its callback has run (or it is cleared).
  // Work the registry cannot follow makes the action's work open: a longer timer, an interval, a
  // string callback, a chain past MAX_GENERATIONS or MAX_FOLLOWED, a frame asked for in a hidden
  // tab, a message to a window, worker, service worker, socket, or a port it did not see made (or
  // whose partner went elsewhere), scheduler.postTask and scheduler.yield, a listener in a shadow
  // tree hearing the action (window.event is undefined there: see listenHeard), the focus in a
  // frame when the action starts (the frame's listeners are not this window's).
  // A page's own polling loop (its timer set by its timer callback, not by a listener) is neither.
  //   "-tq"  ends the heard question; answers "-tpending" or "-tnone"
  //   "-tw"  answers "-tdone" once none is pending (at once when none is)
  //   "-wq"  answers "-wdone" when all the action's work was followed and has run, else "-wopen"
  //          (a registry that came late cannot know what the page captured before it: open)
  const SHORT_TIMER_MS = 750;
  const MAX_GENERATIONS = 3;
  const MAX_FOLLOWED = 64;
  const eventOf = (() => {
    const d = getOwn(W, 'event') || (W.Window && getOwn(W.Window.prototype, 'event'));
    return d && typeof d.get === 'function' ? d.get : null;
  })();
  const targetOf = getOwn(W.Event.prototype, 'target').get;
  const currentEvent = () => {
    try {
      return eventOf ? apply(eventOf, W, []) : undefined;
    } catch (e) {
      return undefined;
    }
  };
  let armed = false; // an action was armed (its work is followed until the next one)
  let generation = 0; // inside a followed callback: its generation
  let lingering = 0; // after a followed callback (or a script's dispatch) until the next task: its generation + 1
  let pending = createNull(); // key ("t" timer id, "f" frame id, "i" idle id, "m" message n) -> 1
  let pendingCount = 0;
  let followed = 0; // callbacks of the second generation on, followed for this action
  let open = false; // the action's code scheduled work that is not followed
  let messages = 0;
  let requests = 0;
  let waited = false; // a "-tw" is waiting for the last pending callback
  // Receiving MessagePort -> [{key, gen}, ...]: the messages on their way to it, in order, since
  // the first one posted (key "" when the message is not the action's work).
  const queues = new WeakMapC();
  const track = (key) => {
    if (pending[key] === 1) return;
    pending[key] = 1;
    pendingCount++;
  };
  const drop = (key) => {
    if (pending[key] !== 1) return;
    delete pending[key];
    pendingCount--;
    doneYet();
  };
  // Tells a waiting "-tw" when nothing is pending and no callback's code is lingering.
  const doneYet = () => {
    if (!waited || pendingCount > 0 || lingering) return;
    waited = false;
    fire(doc, channel + '-tdone');
  };
  // An XMLHttpRequest the action's code sent, until its loadend -> {gen, end}.
  const sent = new WeakMapC();
  // The generation of the action's work an event's listeners run for (0: none): the action's
  // message a port's handler runs for (its queue's head: the registry's own listener, which takes
  // it off, runs after the page's), an XMLHttpRequest the action's code sent.
  const chainOf = (event) => {
    try {
      const target = apply(targetOf, event, []);
      const q = apply(wmGet, queues, [target]);
      if (q) return q.length && q[0].key ? q[0].gen : 0;
      const request = apply(wmGet, sent, [target]);
      return request ? request.gen : 0;
    } catch (e) {
      return 0;
    }
  };
  // The generation work scheduled now gets when it is the action's (0: it is not, or it is open).
  // `hop`: a message posted to a port, whose handler is of the poster's generation; a response's
  // body read, whose continuation is of the request's.
  const scheduling = (hop) => {
    if (!armed) return 0;
    let g = generation; // the generation of the code running now (0: a listener of an event)
    let chained = g > 0;
    if (!chained) {
      const event = currentEvent();
      if (event !== undefined) {
        g = chainOf(event);
        chained = g > 0;
      } else if (lingering) {
        g = lingering - 1;
        chained = g > 0;
      } else {
        return 0;
      }
    }
    const next = hop ? (g || 1) : g + 1;
    if (!chained) return next; // a listener's own work: the first generation, however much
    if (next > MAX_GENERATIONS || followed >= MAX_FOLLOWED) {
      open = true;
      return 0;
    }
    followed++;
    return next;
  };
  // A scanner in the page's own world (WebDriver) reads the original under this name: its own
  // timers and frames are not the page's work. The name is the channel: where the scanner shares
  // the page's world (WebDriver) a page could find it, and read the originals (its own loss).
  const ORIGINAL = channel + '-original';
  const replaceGlobal = (owner, name, handler) => {
    const d = owner ? getOwn(owner, name) : null;
    if (!d || typeof d.value !== 'function' || !d.configurable) return;
    const get = (target, key, receiver) => (key === ORIGINAL ? target : apply(reflectGet, null, [target, key, receiver]));
    defineProp(owner, name, { value: new ProxyC(d.value, { apply: handler, get }), writable: d.writable,
      enumerable: d.enumerable, configurable: true });
  };
  // Chromium keeps the timer functions on the window itself; others on Window.prototype.
  const globalOwner = (name) => (getOwn(W, name) ? W : (W.Window && W.Window.prototype));
  const protoOf = (C) => (typeof C === 'function' ? C.prototype : null);
  const MC = W.MessageChannel;
  const MP = protoOf(W.MessagePort);
  const postOriginal = MP ? MP.postMessage : null;
  // Lingering ends at the next task. Where the browser schedules tasks by priority (Chromium's
  // scheduler.postTask), a user-blocking task: it runs before the tasks already queued at normal
  // priority. A message would not: a page's own timer that came due with the callback's runs
  // before it, and what that timer's code schedules would count as the callback's (a polling
  // loop taken for the action's work). Elsewhere, a message on a private channel made with the
  // original constructor (below).
  const schedulerOf = W.scheduler;
  const postTaskOf = W.Scheduler && schedulerOf instanceof W.Scheduler && typeof W.Scheduler.prototype.postTask === 'function'
    ? W.Scheduler.prototype.postTask : null;
  const urgent = createNull();
  urgent.priority = 'user-blocking';
  let lingerEnd = null;
  let lingerPosted = false;
  const lingerOver = () => {
    lingering = 0;
    lingerPosted = false;
    try {
      doneYet();
    } catch (e) {
      // never in the page's way (nor an unhandled rejection of the task's promise)
    }
  };
  const linger = (g) => {
    if (!armed || !(postTaskOf || lingerEnd)) return;
    if (g + 1 > lingering) lingering = g + 1;
    if (lingerPosted) return;
    lingerPosted = true;
    try {
      if (postTaskOf) apply(postTaskOf, schedulerOf, [lingerOver, urgent]);
      else apply(postOriginal, lingerEnd, [0]);
    } catch (e) {
      lingering = 0;
      lingerPosted = false;
    }
  };
  // Calls the original with a wrapper of the callback args[0], pending under `prefix` + the id
  // the original returns, that runs the callback as generation `mine`, then drops it.
  const followCall = (target, self, args, prefix, mine) => {
    const fn = args[0];
    let key = '';
    const copy = [function () {
      const outer = generation;
      generation = mine;
      try {
        return apply(fn, this, arguments);
      } finally {
        generation = outer;
        linger(mine);
        drop(key); // after what the callback scheduled is pending in its turn
      }
    }];
    for (let i = 1; i < args.length; i++) copy[i] = args[i];
    const id = apply(target, self, copy);
    if (typeof id === 'number') {
      key = prefix + id;
      track(key);
    }
    return id;
  };
  const clearing = (prefix) => (target, self, args) => {
    try {
      drop(prefix + args[0]);
    } catch (e) {
      // never in the page's way
    }
    return apply(target, self, args);
  };
  // Ports in a transfer list (`postMessage(m, [ports])`, `postMessage(m, origin, [ports])`, or
  // `{transfer}`) go to another window, worker or port: their messages no longer come here. The
  // top registry forgets them; one in a frame (whose window a top page's code may post to) tells
  // it with "<channel>-moved" on the port. Only arrays are read (a page's iterable is the
  // original's to consume).
  const MOVED = channel + '-moved';
  const isArray = Array.isArray;
  const toStringOf = Object.prototype.toString;
  let forget = null; // the top registry's (below)
  const transferred = (args) => {
    try {
      for (let a = 1; a <= 2 && a < args.length; a++) {
        let list = args[a];
        if (list !== null && typeof list === 'object' && !isArray(list)) list = list.transfer;
        if (!isArray(list)) continue;
        for (let i = 0; i < list.length; i++) {
          const item = list[i];
          if (apply(toStringOf, item, []) !== '[object MessagePort]') continue;
          if (forget) forget(item);
          else fire(item, MOVED);
        }
      }
    } catch (e) {
      // never in the page's way
    }
  };
  const moving = (also) => (target, self, args) => {
    if (also) also();
    const result = apply(target, self, args);
    transferred(args);
    return result;
  };
  const opens = () => {
    if (scheduling(false)) open = true;
  };
  const opening = (target, self, args) => {
    opens();
    return apply(target, self, args);
  };
  // Only in the top document, where the engine watches actions: a frame's timers are left alone
  // (the scanner may borrow the builtins of a blank frame it then removes, and a timer set
  // through a detached frame's wrapper never fires). A frame reads transfer lists only.
  let top = false;
  try {
    top = W.top === W;
  } catch (e) {
    top = false;
  }
  if (!top) {
    replaceGlobal(globalOwner('postMessage'), 'postMessage', moving(null));
    replaceGlobal(MP, 'postMessage', moving(null));
    replaceGlobal(protoOf(W.Worker), 'postMessage', moving(null));
    replaceGlobal(globalOwner('structuredClone'), 'structuredClone', moving(null));
  } else {
    replaceGlobal(globalOwner('setTimeout'), 'setTimeout', (target, self, args) => {
      const mine = scheduling(false);
      if (!mine) return apply(target, self, args);
      const delay = args[1];
      if (typeof args[0] !== 'function' || !(delay === undefined || (typeof delay === 'number' && delay <= SHORT_TIMER_MS))) {
        open = true;
        return apply(target, self, args);
      }
      return followCall(target, self, args, 't', mine);
    });
    replaceGlobal(globalOwner('setInterval'), 'setInterval', opening);
    replaceGlobal(globalOwner('clearTimeout'), 'clearTimeout', clearing('t'));
    replaceGlobal(globalOwner('clearInterval'), 'clearInterval', clearing('t'));
    // A hidden tab draws no frames: a frame asked for there is open, not pending until it comes.
    const visibilityOf = W.Document && getOwn(W.Document.prototype, 'visibilityState')
      ? getOwn(W.Document.prototype, 'visibilityState').get : null;
    const drawn = () => {
      try {
        return !visibilityOf || apply(visibilityOf, doc, []) === 'visible';
      } catch (e) {
        return false;
      }
    };
    // A callback that comes when `comes()` (else the work is open).
    const later = (prefix, comes) => (target, self, args) => {
      const mine = scheduling(false);
      if (!mine || typeof args[0] !== 'function') return apply(target, self, args);
      if (!comes()) {
        open = true;
        return apply(target, self, args);
      }
      return followCall(target, self, args, prefix, mine);
    };
    replaceGlobal(globalOwner('requestAnimationFrame'), 'requestAnimationFrame', later('f', drawn));
    replaceGlobal(globalOwner('cancelAnimationFrame'), 'cancelAnimationFrame', clearing('f'));
    replaceGlobal(globalOwner('requestIdleCallback'), 'requestIdleCallback', later('i', () => true));
    replaceGlobal(globalOwner('cancelIdleCallback'), 'cancelIdleCallback', clearing('i'));
    replaceGlobal(globalOwner('postMessage'), 'postMessage', moving(opens));
    replaceGlobal(protoOf(W.Worker), 'postMessage', moving(opens));
    replaceGlobal(protoOf(W.ServiceWorker), 'postMessage', moving(opens));
    replaceGlobal(globalOwner('structuredClone'), 'structuredClone', moving(null));
    replaceGlobal(protoOf(W.BroadcastChannel), 'postMessage', opening);
    replaceGlobal(protoOf(W.WebSocket), 'send', opening);
    replaceGlobal(protoOf(W.Scheduler), 'postTask', opening);
    replaceGlobal(protoOf(W.Scheduler), 'yield', opening);
    // A MessageChannel's ports: the registry knows each port's partner (it wraps the constructor)
    // and listens on the receiving port, after the page's own handler (from the first message
    // posted to it: a page sets its handler before it posts), for the messages posted to it.
    const port1Of = MC && getOwn(MC.prototype, 'port1') ? getOwn(MC.prototype, 'port1').get : null;
    const port2Of = MC && getOwn(MC.prototype, 'port2') ? getOwn(MC.prototype, 'port2').get : null;
    const startOf = MP ? MP.start : null;
    const mcd = getOwn(W, 'MessageChannel');
    const wmDelete = W.WeakMap.prototype.delete;
    const arrShift = Array.prototype.shift;
    if (MP && port1Of && port2Of && typeof postOriginal === 'function' && typeof startOf === 'function' &&
        mcd && mcd.value === MC && mcd.configurable) {
      if (!postTaskOf) {
        // The private channel that ends lingering where there is no scheduler.postTask.
        try {
          const own = construct(MC, []);
          const end = apply(port2Of, own, []);
          apply(addOriginal, end, ['message', lingerOver, false]);
          apply(startOf, end, []);
          lingerEnd = apply(port1Of, own, []);
        } catch (e) {
          lingerEnd = null; // no lingering: the code after an await is not followed
        }
      }
      const partners = new WeakMapC();
      forget = (port) => {
        const other = apply(wmGet, partners, [port]);
        if (other) apply(wmDelete, partners, [other]);
        apply(wmDelete, partners, [port]);
        const q = apply(wmGet, queues, [port]);
        if (!q) return;
        apply(wmDelete, queues, [port]);
        for (let i = 0; i < q.length; i++) if (q[i].key) drop(q[i].key);
        q.length = 0;
      };
      const proxy = new ProxyC(MC, {
        construct(target, args, newTarget) {
          const made = construct(target, args, newTarget);
          try {
            const a = apply(port1Of, made, []);
            const b = apply(port2Of, made, []);
            apply(wmSet, partners, [a, b]);
            apply(wmSet, partners, [b, a]);
            on(a, MOVED, () => forget(a));
            on(b, MOVED, () => forget(b));
          } catch (e) {
            // never in the page's way
          }
          return made;
        },
      });
      defineProp(W, 'MessageChannel', { value: proxy, writable: mcd.writable, enumerable: mcd.enumerable, configurable: true });
      const ctor = getOwn(MC.prototype, 'constructor');
      if (ctor && ctor.configurable) {
        defineProp(MC.prototype, 'constructor', { value: proxy, writable: ctor.writable, enumerable: ctor.enumerable,
          configurable: true });
      }
      // A port delivers here once started in this window (start(), or a handler set with
      // onmessage): one never started may have gone to a cross-origin frame, whose postMessage
      // (the browser's own) no registry sees, or may never deliver at all. Posts to it are open.
      const started = new WeakMapC();
      const start = (self) => apply(wmSet, started, [self, true]);
      replaceGlobal(MP, 'start', (target, self, args) => {
        try {
          start(self);
        } catch (e) {
          // never in the page's way
        }
        return apply(target, self, args);
      });
      replaceSetter(MP, 'onmessage', start);
      // (WeakMap's get answers undefined for anything that is not a port it holds.)
      replaceGlobal(MP, 'postMessage', (target, self, args) => {
        const mine = scheduling(true);
        let to = apply(wmGet, partners, [self]);
        if (to && !apply(wmGet, started, [to])) to = undefined;
        if (mine && !to) open = true;
        const result = apply(target, self, args);
        transferred(args);
        if (!to || apply(wmGet, partners, [self]) !== to) return result;
        let q = apply(wmGet, queues, [to]);
        if (!q) {
          const made = [];
          q = made;
          apply(wmSet, queues, [to, made]);
          apply(addOriginal, to, ['message', () => {
            const message = apply(arrShift, made, []);
            if (message && message.key) drop(message.key);
          }, false]);
        }
        const key = mine ? 'm' + ++messages : '';
        if (key) track(key);
        q[q.length] = { key, gen: mine };
        return result;
      });
    }
    // Requests: an XMLHttpRequest is pending until its loadend's listeners have run (the
    // registry's, added at send, runs after the page's load handlers), a fetch and a response's
    // body read until their promises settled and the code after them had its turn (the page gets
    // a promise the registry settles after the original's, so the page's continuations run while
    // the request's work lingers).
    // (open() on a request in flight ends it without a loadend: it ends the pending key too.)
    const XHR = protoOf(W.XMLHttpRequest);
    const ended = (self) => {
      const request = apply(wmGet, sent, [self]);
      if (request) request.end();
    };
    replaceGlobal(XHR, 'open', (target, self, args) => {
      try {
        ended(self);
      } catch (e) {
        // never in the page's way
      }
      return apply(target, self, args);
    });
    replaceGlobal(XHR, 'send', (target, self, args) => {
      const mine = scheduling(false);
      if (!mine) return apply(target, self, args);
      ended(self);
      const key = 'x' + ++requests;
      const end = () => {
        apply(removeOriginal, self, ['loadend', end, false]);
        if (apply(wmGet, sent, [self]) === request) apply(wmDelete, sent, [self]);
        linger(mine);
        drop(key);
      };
      const request = { gen: mine, end };
      track(key);
      apply(wmSet, sent, [self, request]);
      apply(addOriginal, self, ['loadend', end, false]);
      try {
        return apply(target, self, args);
      } catch (e) {
        end();
        throw e;
      }
    });
    const PromiseC = W.Promise;
    const promiseThen = PromiseC && PromiseC.prototype.then;
    const settled = (hop) => (target, self, args) => {
      const mine = scheduling(hop);
      if (!mine) return apply(target, self, args);
      const key = 'r' + ++requests;
      track(key);
      let made;
      try {
        made = apply(target, self, args);
        return new PromiseC((resolve, reject) => {
          const end = (then) => (value) => {
            linger(mine);
            drop(key);
            then(value);
          };
          apply(promiseThen, made, [end(resolve), end(reject)]);
        });
      } catch (e) {
        drop(key);
        if (made !== undefined) return made;
        throw e;
      }
    };
    // The other asynchronous steps a page takes between a response and what it shows (reading
    // a blob, decoding an image, hashing, the cache) are of the generation of the code that
    // takes them, like a body read.
    const each = (owner, names, handler) => {
      for (let i = 0; i < names.length; i++) replaceGlobal(owner, names[i], handler);
    };
    if (typeof promiseThen === 'function') {
      replaceGlobal(globalOwner('fetch'), 'fetch', settled(false));
      const reads = ['json', 'text', 'arrayBuffer', 'blob', 'formData', 'bytes'];
      each(protoOf(W.Response), reads, settled(true));
      each(protoOf(W.Request), reads, settled(true));
      each(protoOf(W.Blob), ['text', 'arrayBuffer', 'bytes'], settled(true));
      each(protoOf(W.HTMLImageElement), ['decode'], settled(true));
      each(globalOwner('createImageBitmap'), ['createImageBitmap'], settled(true));
      each(protoOf(W.SubtleCrypto), ['digest', 'encrypt', 'decrypt', 'sign', 'verify', 'importKey', 'exportKey',
        'generateKey', 'deriveKey', 'deriveBits', 'wrapKey', 'unwrapKey'], settled(true));
      each(protoOf(W.CacheStorage), ['match', 'open', 'has', 'keys', 'delete'], settled(true));
      each(protoOf(W.Cache), ['match', 'matchAll', 'add', 'addAll', 'put', 'delete', 'keys'], settled(true));
    }
  }
  on(doc, channel + '-tarm', () => {
    heardArmed = true;
    heard = focusInFrame();
    armed = true;
    pending = createNull();
    pendingCount = 0;
    followed = 0;
    open = heard; // the focus in a frame: its listeners' work is not seen here
    waited = false;
  });
  on(doc, channel + '-tq', () => {
    endHeard();
    fire(doc, channel + (pendingCount > 0 || lingering ? '-tpending' : '-tnone'));
  });
  on(doc, channel + '-tw', () => {
    waited = true;
    doneYet();
  });
  on(doc, channel + '-wq', () => {
    fire(doc, channel + (!late && armed && !open && pendingCount === 0 && !lingering ? '-wdone' : '-wopen'));
  });
})
