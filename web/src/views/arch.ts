/** Archive (`.arch06`) views: overview with verify, the folder tree (a virtual list), one entry, and its download. */
import type { ArchEntryDetail, ArchOpenResult, ArchOverview, ArchSearchAnswer, ArchTreePage, ArchTreeRow, ArchVerify, Finding } from '../../../src/server/api-types.ts';
import { ApiFailure, apiPath, get, send } from '../api.ts';
import { link, type App } from '../app.ts';
import { bytes, h, mount, num } from '../dom.ts';
import { VirtualTable } from '../virtual-table.ts';

const overviews = new Map<string, Promise<ArchOverview>>();

/** Archives up to this size are verified as soon as their overview opens. */
const AUTO_VERIFY_BYTES = 64 << 20;

/** The overview of an archive (fetched once per page load). */
export function archOverview(file: string): Promise<ArchOverview> {
  let p = overviews.get(file);
  if (!p) {
    p = get<ArchOverview>(['files', file, 'arch']);
    p.catch(() => overviews.delete(file));
    overviews.set(file, p);
  }
  return p;
}

/** A list of verify findings (the first 200). */
export function findingsList(findings: Finding[]): HTMLElement {
  return h(
    'ul',
    { class: 'findings' },
    findings.slice(0, 200).map((f) =>
      h('li', { class: `sev-${f.severity}` }, h('b', null, f.rule), ' ', f.message, f.path ? h('span', { class: 'mono muted' }, ` ${f.path}`) : null, f.offset !== undefined ? h('span', { class: 'mono muted' }, ` @0x${f.offset.toString(16).toUpperCase()}`) : null, f.hypothesis ? h('span', { class: 'badge' }, f.hypothesis) : null),
    ),
  );
}

export async function archOverviewView(_app: App, file: string): Promise<HTMLElement> {
  const o = await archOverview(file);
  const verify = h('section', { class: 'verify' }, h('h3', null, 'Verify ', h('span', { class: 'badge' }, 'running…')), h('p', { class: 'muted' }, 'Decoding every entry to its declared size.'));
  const codecs = h('section', null);
  // verify reads and decodes the whole archive: automatic for small ones, on request for a retail-size one
  if (o.file.size <= AUTO_VERIFY_BYTES) void loadVerify(file, verify, codecs);
  else {
    const run = h('button', { class: 'primary', onclick: () => void loadVerify(file, verify, codecs) }, 'Verify');
    mount(verify, h('h3', null, 'Verify'), h('p', { class: 'muted' }, `Reads and decodes all ${bytes(o.file.size)}: the server answers nothing else meanwhile.`), run);
  }
  return h(
    'div',
    { class: 'page overview' },
    h('h1', null, o.file.name, ' ', h('span', { class: 'kind kind-arch06' }, 'Archive')),
    h('p', { class: 'muted' }, `LithTech archive (LTAR v${o.header.find((x) => x.name === 'version')?.value ?? '?'}) · ${bytes(o.file.size)} · pick an entry in the tree`),
    h('div', { class: 'counts' }, o.counts.map((c) => h('div', { class: 'count' }, h('b', null, c.label.endsWith('bytes') ? bytes(c.value) : num(c.value)), h('span', null, c.label)))),
    h(
      'div',
      { class: 'two-col' },
      h('section', null, h('h3', null, 'Header'), h('table', { class: 'kv' }, o.header.map((f) => h('tr', null, h('th', null, f.name), h('td', { class: 'mono' }, f.value), h('td', { class: 'muted small' }, f.note ?? ''))))),
      verify,
    ),
    h(
      'section',
      null,
      h('h3', null, 'Storage'),
      h(
        'table',
        { class: 'kv' },
        h('tr', null, h('th', null, 'storage'), h('th', null, 'entries'), h('th', null, 'raw'), h('th', null, 'stored')),
        o.storage.map((s) => h('tr', null, h('td', null, s.storage), h('td', { class: 'mono' }, num(s.entries)), h('td', { class: 'mono' }, bytes(s.rawSize)), h('td', { class: 'mono' }, bytes(s.storedSize)))),
      ),
    ),
    codecs,
  );
}

async function loadVerify(file: string, verify: HTMLElement, codecs: HTMLElement): Promise<void> {
  mount(verify, h('h3', null, 'Verify ', h('span', { class: 'badge' }, 'running…')), h('p', { class: 'muted' }, 'Decoding every entry to its declared size.'));
  let v: ArchVerify;
  try {
    v = await get<ArchVerify>(['files', file, 'arch', 'verify']);
  } catch (e) {
    mount(verify, h('h3', null, 'Verify'), h('div', { class: 'error' }, (e as Error).message));
    return;
  }
  const errors = v.findings.filter((f) => f.severity === 'error').length;
  mount(
    verify,
    h('h3', null, 'Verify ', h('span', { class: errors ? 'badge bad' : 'badge good' }, v.findings.length === 0 ? 'no findings' : `${v.findings.length} finding${v.findings.length === 1 ? '' : 's'}`)),
    h('p', { class: 'muted small' }, `${num(v.entries)} entries, ${num(v.chunks)} chunks decoded in ${(v.ms / 1000).toFixed(1)} s`),
    v.findings.length === 0 ? h('p', { class: 'muted' }, 'Every table invariant holds and every entry decodes to its declared size.') : findingsList(v.findings),
  );
  mount(
    codecs,
    h('h3', null, 'Codecs'),
    v.codecs.length === 0 ? h('p', { class: 'muted' }, 'No chunked entries: every entry is stored as is.') : h('div', { class: 'type-bars' }, v.codecs.map((c) => h('div', { class: 'type-bar' }, h('span', { class: 'mono' }, c.codec), h('b', null, `${num(c.entries)} entries`)))),
  );
}

/** The side panel's folder tree: a virtual list paged from the server (a retail archive has ~60,000 entries). */
export function archTree(app: App, file: string, total: number): VirtualTable<ArchTreeRow> {
  return new VirtualTable<ArchTreeRow>({
    columns: [
      {
        head: `${num(total)} rows`,
        width: 0,
        cell: (r) => {
          const indent = `padding-left: ${8 + r.depth * 12}px`;
          if (r.kind === 'folder') {
            return h('div', { class: 'tree-folder', style: indent, title: r.path || '\\' }, h('span', { class: 'cat-name' }, `${r.name}${r.path === '' ? '' : '\\'}`), h('span', { class: 'cat-count' }, `${num(r.files)} · ${bytes(r.rawSize)}`));
          }
          const a = link(app, { view: 'entry', file, entry: r.path.replace(/\\/g, '/') }, h('span', { class: 'cat-name' }, r.name), h('span', { class: 'cat-count' }, `${bytes(r.rawSize)}${r.storage === 'chunked' ? ` → ${bytes(r.storedSize)}` : ''}`));
          a.className = 'cat tree-file';
          a.style.cssText = indent;
          a.title = `${r.path}\n${num(r.rawSize)} bytes, ${r.storage === 'stored' ? 'stored as is' : `${num(r.storedSize)} bytes in chunks`}`;
          return a;
        },
      },
    ],
    total,
    rowHeight: 24,
    pageSize: 500,
    load: async (offset, limit, signal) => (await get<ArchTreePage>(['files', file, 'arch', 'tree'], { offset, limit }, signal)).rows,
  });
}

export async function archEntryView(app: App, file: string, entry: string): Promise<{ element: HTMLElement; treeRow: number }> {
  const e = await get<ArchEntryDetail>(['files', file, 'arch', 'entries', entry]);
  const download = h('a', { class: 'button', href: apiPath(['files', file, 'arch', 'entries', entry, 'content']), download: e.name }, 'Download');
  const open = async () => {
    try {
      const r = await send<ArchOpenResult>('POST', ['files', file, 'arch', 'entries', entry, 'open']);
      if (!app.session.files.some((f) => f.id === r.opened.id)) app.addFile(r.opened);
      app.navigate({ view: 'file', file: r.opened.id });
    } catch (err) {
      app.toast(err instanceof ApiFailure ? err.message : String(err), 'error');
    }
  };
  const opens =
    e.opensAs !== undefined
      ? h('p', null, h('button', { class: 'primary open-entry', onclick: () => void open() }, `Open ${e.opensAs === 'gadb' ? 'the GameDB' : 'the script'}`), h('span', { class: 'muted' }, ' extracts it next to the workbench’s saved files and adds it to the file list.'))
      : null;
  const element = h(
    'div',
    { class: 'page entry' },
    h('h1', { class: 'entry-path' }, e.path),
    h(
      'table',
      { class: 'kv entry-facts' },
      h('tr', null, h('th', null, 'size'), h('td', { class: 'mono' }, `${num(e.rawSize)} bytes`)),
      h('tr', null, h('th', null, 'stored'), h('td', { class: 'mono' }, `${num(e.storedSize)} bytes${e.storage === 'chunked' ? ` in ${num(e.chunks)} chunk${e.chunks === 1 ? '' : 's'}` : ' (as is)'}`)),
      h('tr', null, h('th', null, 'codec'), h('td', { class: 'mono' }, e.storage === 'stored' ? 'none (stored)' : e.codecs.join(' + ') || 'empty')),
      h('tr', null, h('th', null, 'compression level'), h('td', { class: 'mono' }, String(e.compressionLevel))),
      e.magic !== undefined && e.content === 'binary' ? h('tr', null, h('th', null, 'magic'), h('td', { class: 'mono' }, e.magic)) : null,
      h('tr', null, h('th', null, 'record'), h('td', { class: 'mono' }, `#${e.index}`)),
    ),
    h('p', null, download),
    opens,
    h('h3', null, e.content === 'text' ? 'Text' : 'Hex dump', e.previewTruncated ? h('span', { class: 'muted small' }, e.content === 'text' ? ' (first 64 KiB)' : ' (first 4 KiB)') : null),
    h('pre', { class: `entry-preview ${e.content}` }, e.preview),
  );
  return { element, treeRow: e.treeRow };
}

/** Search results of an archive: entries whose path holds every word of the query. */
export async function archSearchView(app: App, file: string, q: string): Promise<HTMLElement> {
  const r = await get<ArchSearchAnswer>(['files', file, 'arch', 'search'], { q });
  return h(
    'div',
    { class: 'page search' },
    h('h2', null, `${num(r.total)} entr${r.total === 1 ? 'y' : 'ies'} for `, h('q', null, r.query)),
    h('p', { class: 'muted' }, 'entry paths holding every word', r.total > r.hits.length ? ` · the first ${num(r.hits.length)} shown` : ''),
    h(
      'ol',
      { class: 'hits' },
      r.hits.map((hit) => h('li', { class: 'hit hit-entry' }, h('span', { class: 'hit-kind' }, 'entry'), link(app, { view: 'entry', file, entry: hit.path.replace(/\\/g, '/') }, hit.path), h('span', { class: 'hit-text' }, bytes(hit.rawSize)))),
    ),
  );
}
