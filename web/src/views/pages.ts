/** The simpler views: served files, a file's overview, search results, staged edits, and the hash tool. */
import type { EditList, FileInfo, GadbAnalysis, GadbOverview, HashAnswer, SaveResult, SearchResult, SearchStatus } from '../../../src/server/api-types.ts';
import { DEFAULT_P919_TABLE, canHashP919, p919 } from '../../../src/hash/p919.ts';
import { get, send, ApiFailure } from '../api.ts';
import { link, type App } from '../app.ts';
import { bytes, debounce, h, hex32, mount, num } from '../dom.ts';
import { recordRoute } from '../routes.ts';
import { valueText } from '../values.ts';
import { namesSection } from './names.ts';

const KIND_LABEL: Record<string, string> = { gadb: 'GameDB', sd2: 'Static DB', arch06: 'Archive', hks: 'Script', changes: 'Change file', unknown: 'Unknown' };

function fileCard(app: App, f: FileInfo): HTMLElement {
  return h(
    'li',
    { class: 'file-card' },
    link(
      app,
      { view: 'file', file: f.id },
      h('span', { class: `kind kind-${f.kind}` }, KIND_LABEL[f.kind] ?? f.kind),
      h('b', null, f.name),
      h('span', { class: 'muted' }, `${bytes(f.size)} · ${f.origin}${f.savedFrom ? ` from ${f.savedFrom}` : ''}`),
    ),
  );
}

export function homeView(app: App): HTMLElement {
  return h(
    'div',
    { class: 'page home' },
    h('h1', null, 'scry workbench'),
    h('p', { class: 'lede' }, 'Browse, search, follow links, and edit Shadow of War game data. Everything stays on this machine.'),
    h('ul', { class: 'file-list' }, app.session.files.map((f) => fileCard(app, f))),
    h(
      'div',
      { class: 'tips' },
      h('h3', null, 'Tips'),
      h(
        'ul',
        null,
        h('li', null, h('kbd', null, '/'), ' focuses search: names, ', h('code', null, '0x…'), ' hashes, numbers and text values.'),
        h('li', null, 'Every view has its own URL: copy it to share exactly what you see.'),
        h('li', null, h('kbd', null, 'Alt ←'), ' / ', h('kbd', null, 'Alt →'), ' go back and forward through followed links.'),
        h('li', null, h('kbd', null, '↓'), ' from the search box into the results, ', h('kbd', null, 'e'), ' edit mode (the highlighted field’s editor takes the focus), ', h('kbd', null, 'Ctrl S'), ' to the staged edits, Enter saves.'),
        h('li', null, 'A GameDB’s ', h('b', null, 'Conflicts'), ' tab loads change files (*.yaml) and patch databases over it in order and shows who wins each field.'),
        h('li', null, link(app, { view: 'hash' }, 'Hash tool'), ': text ↔ P919.'),
      ),
    ),
  );
}

export async function overviewView(app: App, file: string): Promise<HTMLElement> {
  const info = app.session.files.find((f) => f.id === file);
  if (info && info.kind !== 'gadb') return h('div', { class: 'page' }, h('h1', null, info.name), h('p', null, `${KIND_LABEL[info.kind] ?? info.kind} files are listed but not opened by this version of the workbench (the library reads them: see scry help).`));
  const o = await get<GadbOverview>(['files', file]);
  const counts = h('div', { class: 'counts' }, o.counts.map((c) => h('div', { class: 'count' }, h('b', null, num(c.value)), h('span', null, c.label))));
  const verify = h('section', { class: 'verify' }, h('h3', null, 'Verify ', h('span', { class: 'badge' }, 'running…')), h('p', { class: 'muted' }, 'Checking every invariant of the format (runs in the background for large files).'));
  const types = h('section', null);
  void loadAnalysis(file, counts, verify, types);
  return h(
    'div',
    { class: 'page overview' },
    h('h1', null, o.file.name, ' ', h('span', { class: 'kind kind-gadb' }, 'GameDB')),
    h('p', { class: 'muted' }, `${o.container} · root ${o.rootName} · ${bytes(o.file.size)} · opened in ${o.openMs.toFixed(0)} ms`),
    counts,
    namesSection(app, file, () => app.navigate({ view: 'file', file }, { replace: true })),
    h(
      'div',
      { class: 'two-col' },
      h(
        'section',
        null,
        h('h3', null, 'Header'),
        h('table', { class: 'kv' }, o.header.map((f) => h('tr', null, h('th', null, f.name), h('td', { class: 'mono' }, f.hex), h('td', { class: 'mono muted' }, num(f.value)), h('td', { class: 'muted small' }, f.note ?? '')))),
      ),
      verify,
    ),
    types,
  );
}

async function loadAnalysis(file: string, counts: HTMLElement, verify: HTMLElement, types: HTMLElement): Promise<void> {
  let a: GadbAnalysis;
  try {
    a = await get<GadbAnalysis>(['files', file, 'analysis']);
  } catch (e) {
    mount(verify, h('h3', null, 'Verify'), h('div', { class: 'error' }, (e as Error).message));
    return;
  }
  for (const c of a.counts) counts.appendChild(h('div', { class: 'count' }, h('b', null, num(c.value)), h('span', null, c.label)));
  const errors = a.findings.filter((f) => f.severity === 'error').length;
  mount(
    verify,
    h('h3', null, 'Verify ', h('span', { class: errors ? 'badge bad' : 'badge good' }, a.findings.length === 0 ? 'no findings' : `${a.findings.length} finding${a.findings.length === 1 ? '' : 's'}`)),
    h('p', { class: 'muted small' }, `${(a.ms / 1000).toFixed(1)} s${a.worker ? ' in a worker thread' : ''}`),
    a.findings.length === 0
      ? h('p', { class: 'muted' }, 'Every rule the verifier knows holds for this file.')
      : h(
          'ul',
          { class: 'findings' },
          a.findings.slice(0, 200).map((f) =>
            h('li', { class: `sev-${f.severity}` }, h('b', null, f.rule), ' ', f.message, f.offset !== undefined ? h('span', { class: 'mono muted' }, ` @0x${f.offset.toString(16).toUpperCase()}`) : null, f.hypothesis ? h('span', { class: 'badge' }, f.hypothesis) : null),
          ),
        ),
  );
  mount(
    types,
    h('h3', null, 'Field types'),
    h('div', { class: 'type-bars' }, a.descriptorTypes.map((t) => h('div', { class: 'type-bar' }, h('span', { class: 'mono' }, t.type), h('b', null, num(t.count))))),
  );
}

export async function searchView(app: App, file: string, q: string): Promise<HTMLElement> {
  if (q.trim() === '') return h('div', { class: 'page' }, h('p', { class: 'muted' }, 'Type in the search box: a name, a 0x… hash, a number (0.5, 0.5~0.01) or a text value.'));
  const host = h('div', { class: 'page search' });
  const status = await get<SearchStatus>(['files', file, 'search', 'status']);
  if (status.state !== 'ready') {
    // The index is built once per file (a worker thread for large files): show how far it is, then search.
    const bar = h('span', { class: 'meter-fill' });
    const label = h('span', { class: 'muted' });
    const show = (s: SearchStatus) => {
      bar.style.width = `${s.total === 0 ? 0 : (100 * s.done) / s.total}%`;
      label.textContent = `Indexing ${num(s.done)} of ${num(s.total)} records for search${s.worker ? ' (in a worker thread: the rest of the workbench keeps answering)' : ''}…`;
    };
    show(status);
    mount(host, h('div', { class: 'coverage index-progress', role: 'progressbar' }, h('span', { class: 'meter' }, bar), label));
    void (async () => {
      let shown = false;
      for (;;) {
        await new Promise((r) => setTimeout(r, 250));
        // stop once the user has left the view
        if (host.isConnected) shown = true;
        else if (shown) return;
        const s = await get<SearchStatus>(['files', file, 'search', 'status']);
        if (s.state === 'failed') return mount(host, h('div', { class: 'error' }, s.error ?? 'the search index could not be built'));
        if (s.state === 'ready') break;
        show(s);
      }
      await fillSearch(app, file, q, host);
    })();
    return host;
  }
  await fillSearch(app, file, q, host);
  return host;
}

/** ↑/↓ move the focus between the hits' links (↑ from the first goes back to the search box). */
function moveBetweenHits(e: KeyboardEvent): void {
  if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
  const links = Array.from(document.querySelectorAll<HTMLAnchorElement>('.search .hits a'));
  const i = links.indexOf(document.activeElement as HTMLAnchorElement);
  if (i < 0) return;
  e.preventDefault();
  const next = links[i + (e.key === 'ArrowDown' ? 1 : -1)];
  if (next) next.focus();
  else if (e.key === 'ArrowUp') document.querySelector<HTMLInputElement>('input.search')?.focus();
}

async function fillSearch(app: App, file: string, q: string, host: HTMLElement): Promise<void> {
  const t0 = performance.now();
  const r = await get<SearchResult>(['files', file, 'search'], { q, limit: 500 });
  const ms = performance.now() - t0;
  mount(
    host,
    h('h2', null, `${num(r.total)} result${r.total === 1 ? '' : 's'} for `, h('q', null, r.query)),
    h('p', { class: 'muted' }, `read as ${r.mode} · ${ms.toFixed(0)} ms${r.truncated ? ` · the first ${num(r.hits.length)} shown` : ''}`),
    h(
      'ol',
      { class: 'hits', onkeydown: (e: KeyboardEvent) => moveBetweenHits(e) },
      r.hits.map((hit) => {
        const target = hit.record ? recordRoute(file, hit.record, hit.field?.hex) : hit.category ? { view: 'category' as const, file, category: hit.category } : undefined;
        const label = hit.record ? `${hit.record.category} / ${hit.record.label}` : (hit.category ?? '');
        return h(
          'li',
          { class: `hit hit-${hit.kind}` },
          h('span', { class: 'hit-kind' }, hit.kind),
          target ? link(app, target, label) : label,
          hit.field ? h('span', { class: 'hit-field' }, ' · ', hit.field.name ?? hit.field.hex, hit.element !== undefined ? `[${hit.element}]` : '') : null,
          h('span', { class: 'hit-text' }, hit.text),
        );
      }),
    ),
  );
}

export async function editsView(app: App, file: string): Promise<HTMLElement> {
  const list = await get<EditList>(['files', file, 'edits']);
  const nameInput = h('input', { class: 'save-name', value: list.suggestedName, spellcheck: 'false', 'aria-label': 'file name' });
  const formatSelect = h(
    'select',
    { class: 'save-format', 'aria-label': 'save format' },
    list.saveAs.map((f) => h('option', { value: f.id }, f.label)),
  );
  const BUTTON: Record<string, string> = { gadb: 'Save new file', patch: 'Save patch database', changes: 'Save change file' };
  const saveButton = h('button', { class: 'primary', onclick: () => void save() }, BUTTON['gadb']!);
  const result = h('div', { class: 'save-result' });
  // After a save the button rests (“Saved”) until the name or the format changes: a second click, or a
  // double click, never writes the same name again.
  const ready = () => {
    saveButton.disabled = false;
    saveButton.textContent = BUTTON[formatSelect.value] ?? 'Save';
  };
  formatSelect.addEventListener('change', () => {
    const f = list.saveAs.find((x) => x.id === formatSelect.value);
    if (f) nameInput.value = f.suggestedName;
    ready();
  });
  nameInput.addEventListener('input', ready);
  nameInput.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') void save();
  });
  // with edits staged, the name is ready to confirm (Ctrl+S from any view lands here): Enter saves
  if (list.edits.length > 0) setTimeout(() => nameInput.isConnected && document.activeElement === document.body && nameInput.focus(), 0);
  const save = async () => {
    if (saveButton.disabled) return;
    saveButton.disabled = true;
    saveButton.textContent = 'Saving…';
    try {
      const r = await send<SaveResult>('POST', ['files', file, 'save'], { name: nameInput.value, as: formatSelect.value });
      if (r.saved && !app.session.files.some((f) => f.id === r.saved!.id)) app.addFile(r.saved);
      const verify = `verify${r.format === 'gadb' ? '' : ' of the base with it applied'}: ${r.findings.length === 0 ? 'no findings' : `${r.findings.length} findings`}.`;
      mount(
        result,
        h(
          'div',
          { class: 'ok' },
          'Saved ',
          r.saved ? link(app, { view: 'file', file: r.saved.id }, r.saved.name) : h('span', { class: 'mono' }, r.name),
          ` (${bytes(r.bytes)}); ${verify}`,
          r.checked ? h('div', { class: 'muted' }, `Checked: ${r.checked}.`) : null,
        ),
      );
      app.toast(`Saved ${r.name}`);
      saveButton.textContent = 'Saved';
    } catch (e) {
      mount(result, h('div', { class: 'error' }, e instanceof ApiFailure ? e.message : String(e)));
      ready();
    }
  };
  const remove = async (id: number) => {
    await send('DELETE', ['files', file, 'edits', id]);
    app.editsChanged(file);
  };
  return h(
    'div',
    { class: 'page edits' },
    h('h2', null, 'Staged edits'),
    list.edits.length === 0
      ? h('p', { class: 'muted' }, 'Nothing staged. Turn on edit mode, open a record and change a value.')
      : h(
          'table',
          { class: 'diff' },
          h('tr', null, h('th', null, 'record'), h('th', null, 'field'), h('th', null, 'before'), h('th', null, 'after'), h('th', null, '')),
          list.edits.map((e) =>
            h(
              'tr',
              null,
              h('td', null, link(app, recordRoute(file, e.record, e.field.hex), `${e.record.category} / ${e.record.label}`)),
              h('td', null, e.field.name ?? h('span', { class: 'hash' }, e.field.hex), h('small', { class: 'muted' }, ` ${e.field.type}`), e.messages.map((m) => h('div', { class: m.severity === 'warning' ? 'note warn' : 'note' }, m.severity === 'warning' ? '⚠ ' : 'ℹ ', m.message))),
              h('td', { class: 'del' }, valueText(e.before)),
              h('td', { class: 'ins' }, valueText(e.after)),
              h('td', null, h('button', { class: 'icon', title: 'Unstage', onclick: () => void remove(e.id) }, '×')),
            ),
          ),
        ),
    list.edits.length === 0
      ? null
      : h(
          'div',
          { class: 'save-form' },
          h('label', null, 'Save as ', formatSelect),
          h('label', null, 'named ', nameInput),
          saveButton,
          h('span', { class: 'muted' }, ' written atomically beside the original (samples: the cache folder), never over a file; the original is never touched. A patch database or change file is checked by applying it to the original before it is written.'),
        ),
    result,
  );
}

export function hashView(app: App, text: string | undefined, hash: string | undefined): HTMLElement {
  const textInput = h('input', { class: 'big', value: text ?? '', placeholder: 'a name, e.g. CombatProp', spellcheck: 'false', 'aria-label': 'text' });
  const hashInput = h('input', { class: 'big mono', value: hash ?? '', placeholder: '0x9CE11687', spellcheck: 'false', 'aria-label': 'hash' });
  const textOut = h('div', { class: 'hash-out' });
  const hashOut = h('div', { class: 'hash-out' });
  const forward = () => {
    const t = textInput.value;
    app.navigate({ view: 'hash', text: t }, { replace: true, silent: true });
    if (t === '') return mount(textOut);
    // P919 runs here, in the page: the same code as the CLI.
    if (!canHashP919(t, { table: DEFAULT_P919_TABLE })) {
      try {
        p919(t);
      } catch (e) {
        return mount(textOut, h('div', { class: 'error' }, (e as Error).message));
      }
    }
    const value = p919(t);
    mount(textOut, h('div', { class: 'hash-value mono' }, hex32(value)), h('div', { class: 'muted mono' }, `${value} (u32)`));
  };
  const backward = debounce(async () => {
    const v = hashInput.value.trim();
    app.navigate({ view: 'hash', hash: v }, { replace: true, silent: true });
    if (v === '') return mount(hashOut);
    try {
      const a = await get<HashAnswer>(['hash'], { hash: v });
      mount(
        hashOut,
        h('div', { class: 'hash-value mono' }, a.hex ?? ''),
        a.names.length === 0 ? h('div', { class: 'muted' }, 'No known name has this hash (names come from the dictionary and the served files).') : h('ul', null, a.names.map((n) => h('li', null, h('b', null, n.name), h('span', { class: 'muted' }, ` · ${n.source}`)))),
      );
    } catch (e) {
      mount(hashOut, h('div', { class: 'error' }, (e as Error).message));
    }
  }, 150);
  textInput.addEventListener('input', forward);
  hashInput.addEventListener('input', () => void backward());
  queueMicrotask(() => {
    if (text) forward();
    if (hash) void backward();
  });
  return h(
    'div',
    { class: 'page hash-tool' },
    h('h1', null, 'P919 hash'),
    h('p', { class: 'muted' }, 'The engine stores field names only as P919 hashes. Type a name to hash it, or a hash to find the names known for it.'),
    h('div', { class: 'two-col' }, h('section', null, h('h3', null, 'text → hash'), textInput, textOut), h('section', null, h('h3', null, 'hash → names'), hashInput, hashOut)),
  );
}
