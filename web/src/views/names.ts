/**
 * The names panel of a GameDB or sd2 overview: coverage (how many hashes have a name), the lists loaded, adding
 * names (one name, or `0xHASH<TAB>name`, per line), and the name finder, whose candidates are added only when the
 * user says so.
 */
import type { AddNamesAnswer, CrackAnswer, GadbNamesInfo, Sd2NamesInfo } from '../../../src/server/api-types.ts';
import { ApiFailure, get, send } from '../api.ts';
import { link, namesChanged, type App } from '../app.ts';
import { h, mount, num } from '../dom.ts';

function pct(named: number, total: number): string {
  return total === 0 ? '0' : ((100 * named) / total).toFixed(1);
}

function meter(named: number, total: number, noun: string): HTMLElement {
  const bar = h('span', { class: 'meter-fill' });
  bar.style.width = `${pct(named, total)}%`;
  return h('div', { class: 'coverage' }, h('span', { class: 'meter' }, bar), h('span', null, h('b', null, num(named)), ` of ${num(total)} ${noun} named (${pct(named, total)}%)`));
}

/** The names section; `onAdded` re-renders the page that holds it. */
export function namesSection(app: App, file: string, onAdded: () => void): HTMLElement {
  const host = h('section', { class: 'names', 'aria-label': 'names' }, h('h3', null, 'Names'), h('p', { class: 'muted' }, 'Counting named hashes…'));
  void fill(app, file, host, onAdded);
  return host;
}

async function fill(app: App, file: string, host: HTMLElement, onAdded: () => void): Promise<void> {
  let info: GadbNamesInfo | Sd2NamesInfo;
  try {
    info = await get<GadbNamesInfo | Sd2NamesInfo>(['files', file, 'names']);
  } catch (e) {
    mount(host, h('h3', null, 'Names'), h('div', { class: 'error' }, (e as Error).message));
    return;
  }
  const text = h('textarea', { class: 'names-input', rows: 3, spellcheck: 'false', 'aria-label': 'names to add', placeholder: 'One name per line (EmissionRate), or 0xHASH<TAB>name' });
  const result = h('div', { class: 'names-result', 'aria-live': 'polite' });
  const add = async (lines: string, button: HTMLButtonElement) => {
    button.disabled = true;
    try {
      const r = await send<AddNamesAnswer>('POST', ['names'], { text: lines, file });
      namesChanged();
      const refused = [...r.mismatches.map((m) => `line ${m.line}: ${m.name} hashes to ${m.hash}, not ${m.listed}`), ...r.unhashable.map((u) => `line ${u.line}: ${u.reason}`)];
      app.toast(`${num(r.added)} new name${r.added === 1 ? '' : 's'}${r.saved ? ' (kept in your config folder)' : ''}`);
      if (refused.length > 0) mount(result, h('div', { class: 'error' }, 'Not added: ', refused.join('; ')));
      else onAdded();
    } catch (e) {
      mount(result, h('div', { class: 'error' }, e instanceof ApiFailure ? e.message : String(e)));
    } finally {
      button.disabled = false;
    }
  };
  const addButton = h('button', { class: 'primary', onclick: () => void add(text.value, addButton) }, 'Add names');
  const words = h('select', { class: 'crack-words', 'aria-label': 'words per name' }, [1, 2, 3].map((n) => h('option', { value: n, selected: n === 2 }, `${n} word${n === 1 ? '' : 's'}`)));
  const found = h('div', { class: 'crack-result' });
  const crackButton = h('button', { class: 'secondary', onclick: () => void crack() }, 'Find names');
  const crack = async () => {
    crackButton.disabled = true;
    mount(found, h('p', { class: 'muted' }, 'Trying combinations of the file’s own words…'));
    try {
      const r = await get<CrackAnswer>(['files', file, 'names', 'crack'], { words: words.value });
      const boxes = r.hits.map((hit) => ({ hit, box: h('input', { type: 'checkbox', checked: true, 'aria-label': `add ${hit.name}` }) }));
      const addFound = h(
        'button',
        {
          class: 'primary',
          onclick: () => void add(boxes.filter((b) => b.box.checked).map((b) => `${b.hit.hex}\t${b.hit.name}`).join('\n'), addFound),
        },
        `Add the checked names`,
      );
      mount(
        found,
        h(
          'p',
          { class: 'muted small' },
          `${num(r.hits.length)} name${r.hits.length === 1 ? '' : 's'} found from ${num(r.tried)} candidates of ${num(r.vocabulary)} words in ${(r.ms / 1000).toFixed(1)} s${r.worker ? ' (worker thread)' : ''}${r.complete ? '' : ', budget reached'}; about ${r.expectedFalseHits.toFixed(2)} would match by chance alone: review before adding.`,
        ),
        r.hits.length === 0
          ? null
          : h(
              'table',
              { class: 'kv crack-hits' },
              h('tr', null, h('th', null, ''), h('th', null, 'hash'), h('th', null, 'name'), h('th', null, 'made of')),
              boxes.map(({ hit, box }) => h('tr', null, h('td', null, box), h('td', { class: 'mono hash' }, hit.hex), h('td', { class: 'mono' }, hit.name), h('td', { class: 'muted small' }, hit.how))),
            ),
        r.collisions.length === 0 ? null : h('div', { class: 'note warn' }, `Collisions (not proposed): `, r.collisions.map((c) => `${c.hex} = ${c.names.join(' or ')}`).join('; ')),
        r.hits.length === 0 ? null : addFound,
      );
    } catch (e) {
      mount(found, h('div', { class: 'error' }, e instanceof ApiFailure ? e.message : String(e)));
    } finally {
      crackButton.disabled = false;
    }
  };
  const coverage =
    info.kind === 'gadb'
      ? meter(info.named, info.fields, 'field hashes')
      : h('div', null, meter(info.tables.named, info.tables.total, 'tables'), meter(info.columns.named, info.columns.total, 'column slots'));
  const lists =
    info.kind === 'gadb' && info.lists.length > 0
      ? h(
          'div',
          { class: 'name-lists muted small' },
          'Lists: ',
          info.lists.map((l, i) => [i > 0 ? ', ' : '', h('span', { class: 'name-list', title: l.about ?? '' }, `${l.name} (+${num(l.added)}${l.skipped ? `, ${l.skipped} skipped` : ''})`), l.about !== undefined ? h('span', { class: 'list-about' }, ` — ${l.about}`) : '']),
        )
      : null;
  const unnamed =
    info.kind === 'gadb'
      ? info.unnamed.slice(0, 40).map((u) => h('li', null, link(app, { view: 'hash', hash: u.hex }, u.hex), h('span', { class: 'muted small' }, ` ${u.type} · ${num(u.categories)} categor${u.categories === 1 ? 'y' : 'ies'}`)))
      : [...info.unnamedTables.slice(0, 20).map((id) => h('li', null, h('span', { class: 'mono hash' }, id), h('span', { class: 'muted small' }, ' table'))), ...info.unnamedColumns.slice(0, 20).map((id) => h('li', null, h('span', { class: 'mono hash' }, id), h('span', { class: 'muted small' }, ' column')))];
  mount(
    host,
    h('h3', null, 'Names'),
    coverage,
    lists,
    h('div', { class: 'names-tools' }, h('div', { class: 'names-add' }, text, h('div', null, addButton, h('span', { class: 'muted small' }, info.persistent ? ' Added names are kept in your config folder (names/workbench.txt) for the CLI and later runs.' : ' Added names last for this run (no config folder).')), result), h('div', { class: 'names-crack' }, h('div', null, crackButton, ' ', words), found)),
    unnamed.length > 0 ? h('details', null, h('summary', null, `Unnamed hashes (most used first)`), h('ul', { class: 'unnamed' }, unnamed)) : null,
  );
}
