/**
 * Builds a day's chunk (sqlite-columns.ts) from its rows as they are read, batch by batch
 * (sqlite-chunk-reader.ts): each row's strings are coded with the site's dictionaries at
 * once and its numbers put in growing typed arrays, so a load holds the codes of the rows
 * read so far, not the rows (a JSON row is a few hundred bytes of short-lived objects,
 * which is what made the garbage collector pause during a warming). Strings new to the site
 * get provisional codes until `finish`, which adds them to the site's dictionaries, groups the
 * day's events by visitor and lays the arrays out, a few milliseconds per step: a day given
 * up as too large half-way through its read adds nothing to them.
 */
import type { DaySink, EventRow, ForeignRow, OutsideRow, PropsCell, SessionRow } from './sqlite-chunk-reader.js';
import { float64, int32, Provisional, settle, uint8 } from './sqlite-chunk-arrays.js';
import { permute, recordOrderOf, sameKeyPositions } from './sqlite-chunk-order.js';
import { ATTRIBUTES, type DayChunk, type Dictionary, pacer, type SiteDictionaries } from './sqlite-columns.js';

/** Events of one kind as they come: session (local index), pageview flag, path or name code, and their properties' codes. */
class EventColumns {
  readonly session = int32();
  readonly pageview = uint8();
  readonly code = int32();
  /** Properties of event i: `propKey/propValue[propStart[i] .. propStart[i + 1])`. */
  readonly propStart = int32();
  readonly propKey = int32();
  readonly propValue = int32();
  constructor(private readonly dicts: Dicts) {
    this.propStart.push(0);
  }
  add(session: number, type: number, text: string, props: PropsCell): void {
    this.session.push(session);
    this.pageview.push(type === 0 ? 1 : 0);
    this.code.push(type === 0 ? this.dicts.paths.code(text) : this.dicts.names.code(text));
    for (const [key, value] of props ?? []) {
      this.propKey.push(this.dicts.propKeys.code(key));
      this.propValue.push(this.dicts.propValues.code(value));
    }
    this.propStart.push(this.propKey.length);
  }
}

/** The site's dictionaries as one load codes with them (`Provisional`; paths and entry pages share one). */
interface Dicts {
  paths: Provisional;
  names: Provisional;
  propKeys: Provisional;
  propValues: Provisional;
  attributes: Provisional[];
  all: Provisional[];
}

function provisional(site: SiteDictionaries): Dicts {
  const paths = new Provisional(site.paths);
  const of = (d: Dictionary) => (d === site.paths ? paths : new Provisional(d));
  const dicts = { paths, names: of(site.names), propKeys: of(site.propKeys), propValues: of(site.propValues), attributes: site.attributes.map(of) };
  return { ...dicts, all: [...new Set([dicts.paths, dicts.names, dicts.propKeys, dicts.propValues, ...dicts.attributes])] };
}

/**
 * A sink for one day's read (`readDay`) that builds its chunk: `finish()` (a generator of
 * steps) returns it once the read is done. `foreignDays()` are the start days of the foreign
 * sessions found, for reading their versions in the read's snapshot.
 */
export function createChunkBuilder(day: string, site: SiteDictionaries) {
  const dicts = provisional(site);
  /** Local index of every session seen: own ones in visitor order, then foreign ones by first event. */
  const index = new Map<string, number>();
  let own = 0;
  const foreignIds: string[] = [];
  /** The start day of foreign session k once its row is found ('' until then: missing, its events are dropped). */
  const foreignDay: string[] = [];
  const attributes = ATTRIBUTES.map(() => int32());
  const visitor = int32();
  const bounce = uint8();
  const durationMs = float64();
  const startTs = float64();
  let lastVisitor: string | undefined;
  let group = -1;
  const events = new EventColumns(dicts);
  const evVisitor = int32();
  const evGap = float64();
  const evTs = float64();
  /** Each event's `seq`, for putting equal times in record order (sqlite-chunk-order.ts); not kept in the chunk. */
  const evSeq = float64();
  const eventGroups = new Map<string, number>();
  const outside = new EventColumns(dicts);
  const exTs = float64();
  const exSeq = float64();

  const sink: DaySink = {
    own(rows: readonly SessionRow[]) {
      for (const row of rows) {
        index.set(row[0], own++);
        if (row[1] !== lastVisitor) {
          group++;
          lastVisitor = row[1];
        }
        visitor.push(group);
        bounce.push(row[4]);
        durationMs.push(row[3] - row[2]);
        startTs.push(row[2]);
        for (let a = 0; a < attributes.length; a++) attributes[a]!.push(dicts.attributes[a]!.code(row[5 + a] as string));
      }
    },
    events(rows: readonly EventRow[]) {
      for (const [sessionId, visitorId, type, text, gap, ts, , props, seq] of rows) {
        let s = index.get(sessionId);
        if (s === undefined) {
          index.set(sessionId, (s = own + foreignIds.length));
          foreignIds.push(sessionId);
          foreignDay.push('');
        }
        let g = eventGroups.get(visitorId);
        if (g === undefined) eventGroups.set(visitorId, (g = eventGroups.size));
        events.add(s, type, text, props);
        evVisitor.push(g);
        evGap.push(gap ?? Number.NaN);
        evTs.push(ts);
        evSeq.push(seq);
      }
    },
    foreignIds: () => foreignIds,
    foreign(rows: readonly ForeignRow[]) {
      for (const row of rows) {
        const s = index.get(row[0])!;
        foreignDay[s - own] = row[1];
        for (let a = 0; a < attributes.length; a++) attributes[a]!.set(s, dicts.attributes[a]!.code(row[4 + a] as string));
      }
    },
    outside(rows: readonly OutsideRow[]) {
      for (const [sessionId, type, text, props, ts, , seq] of rows) {
        outside.add(index.get(sessionId)!, type, text, props);
        exTs.push(ts);
        exSeq.push(seq);
      }
    },
  };

  function* finish(): Generator<void, DayChunk> {
    const due = pacer();
    // The day is read in full: its new strings join the site's dictionaries (in one step: codes stay consistent).
    const merged = new Map(dicts.all.map((d) => [d, d.merge()]));
    const settleEvents = (codes: Int32Array, pageview: Uint8Array, keys: Int32Array, values: Int32Array) => {
      for (let i = 0; i < codes.length; i++) if (codes[i]! < 0) codes[i] = (pageview[i] ? merged.get(dicts.paths)! : merged.get(dicts.names)!)[-codes[i]! - 1]!;
      settle(keys, merged.get(dicts.propKeys)!);
      settle(values, merged.get(dicts.propValues)!);
    };
    // Foreign sessions without a row are in no session (the raw definition's join drops their events too): the others close up.
    const slot = new Int32Array(own + foreignIds.length);
    let sessions = 0;
    for (let s = 0; s < slot.length; s++) slot[s] = s < own || foreignDay[s - own] !== '' ? sessions++ : -1;
    const attributeCodes = attributes.map((column, a) => {
      const codes = new Int32Array(sessions);
      for (let s = 0; s < slot.length; s++) if (slot[s]! >= 0) codes[slot[s]!] = column.get(s);
      settle(codes, merged.get(dicts.attributes[a]!)!);
      return codes;
    });
    yield;
    // The day's events grouped by visitor (a counting sort by the visitor's group), so a scan sees each visitor's events together.
    const n = events.session.length;
    const perGroup = new Int32Array(eventGroups.size + 1);
    let kept = 0;
    for (let i = 0; i < n; i++) {
      if (slot[events.session.get(i)]! < 0) continue;
      perGroup[evVisitor.get(i) + 1]!++;
      kept++;
    }
    for (let g = 1; g < perGroup.length; g++) perGroup[g]! += perGroup[g - 1]!;
    /** Where each visitor's events begin (and, last, where they all end). */
    const groupBounds = perGroup.slice();
    const sessionGroups = group + 1;
    const ev = {
      session: new Int32Array(kept), pageview: new Uint8Array(kept), code: new Int32Array(kept), visitor: new Int32Array(kept), gap: new Float64Array(kept), ts: new Float64Array(kept),
      seq: new Float64Array(kept),
    };
    /** The arrival index of each placed event, to lay out its properties in placed order. */
    const arrival = new Int32Array(kept);
    for (let i = 0; i < n; i++) {
      const s = slot[events.session.get(i)]!;
      if (s < 0) continue;
      const g = evVisitor.get(i);
      const at = perGroup[g]!++;
      arrival[at] = i;
      ev.session[at] = s;
      ev.pageview[at] = events.pageview.get(i);
      ev.code[at] = events.code.get(i);
      ev.visitor[at] = sessionGroups + g;
      ev.gap[at] = evGap.get(i);
      ev.ts[at] = evTs.get(i);
      ev.seq[at] = evSeq.get(i);
      if (due(i)) yield;
    }
    // Each visitor's events in record order: by key they are in time order, equal times by arrival.
    const evOrder = recordOrderOf(groupBounds, ev.ts, ev.seq);
    if (evOrder) for (const column of [ev.session, ev.pageview, ev.code, ev.visitor, ev.gap, ev.ts, ev.seq, arrival]) permute(column, evOrder);
    const evTies = sameKeyPositions(ev.session, ev.ts, ev.seq, sessions);
    yield;
    const evProps = yield* placeProps(events, arrival, due);
    settleEvents(ev.code, ev.pageview, evProps.keys, evProps.values);
    const ex = { session: outside.session.done(), pageview: outside.pageview.done(), code: outside.code.done(), ts: exTs.done(), seq: exSeq.done() };
    for (let i = 0; i < ex.session.length; i++) ex.session[i] = slot[ex.session[i]!]!;
    // Outside events come a session at a time: each session's in record order too.
    const runs = [0];
    for (let i = 1; i < ex.session.length; i++) if (ex.session[i] !== ex.session[i - 1]) runs.push(i);
    runs.push(ex.session.length);
    const exArrival = Int32Array.from({ length: ex.session.length }, (_, i) => i);
    const exOrder = recordOrderOf(Int32Array.from(runs), ex.ts, ex.seq);
    if (exOrder) for (const column of [ex.session, ex.pageview, ex.code, ex.ts, ex.seq, exArrival]) permute(column, exOrder);
    const exTies = sameKeyPositions(ex.session, ex.ts, ex.seq, sessions);
    const exProps = yield* placeProps(outside, exArrival, due);
    settleEvents(ex.code, ex.pageview, exProps.keys, exProps.values);
    const dependsOn = [...new Set(foreignDay.filter((d) => d !== '' && d !== day))].sort();
    return {
      day, own, sessions, attributes: attributeCodes, visitor: visitor.done(), bounce: bounce.done(), durationMs: durationMs.done(), startTs: startTs.done(),
      evSession: ev.session, evPageview: ev.pageview, evCode: ev.code, evVisitor: ev.visitor, evGap: ev.gap, evTs: ev.ts,
      evProps: evProps.offsets, evPropKey: evProps.keys, evPropValue: evProps.values,
      exSession: ex.session, exPageview: ex.pageview, exCode: ex.code, exProps: exProps.offsets, exPropKey: exProps.keys, exPropValue: exProps.values,
      evTies, exTies,
      groups: sessionGroups + eventGroups.size,
      dependsOn,
      matches: new Map(),
      goalHits: new Map(),
      funnelLevels: new Map(),
    };
  }

  return {
    sink,
    finish,
    /** The start days of the foreign sessions found so far (with the day itself, what the chunk's versions cover). */
    foreignDays: (): string[] => foreignDay.filter((d) => d !== ''),
  };
}

/** The properties of events placed at `arrival[at]`, as offsets into key and value codes in placed order (see `DayChunk.evProps`). */
function* placeProps(events: EventColumns, arrival: Int32Array, due: (i: number) => boolean): Generator<void, { offsets: Int32Array; keys: Int32Array; values: Int32Array }> {
  const offsets = new Int32Array(arrival.length + 1);
  for (let at = 0; at < arrival.length; at++) {
    const i = arrival[at]!;
    offsets[at + 1] = offsets[at]! + events.propStart.get(i + 1) - events.propStart.get(i);
  }
  const total = offsets[arrival.length]!;
  const keys = new Int32Array(total);
  const values = new Int32Array(total);
  for (let at = 0; at < arrival.length; at++) {
    const i = arrival[at]!;
    for (let j = events.propStart.get(i), k = offsets[at]!; j < events.propStart.get(i + 1); j++, k++) {
      keys[k] = events.propKey.get(j);
      values[k] = events.propValue.get(j);
    }
    if (due(at)) yield;
  }
  return { offsets, keys, values };
}

export type ChunkBuilder = ReturnType<typeof createChunkBuilder>;
