import type { BookOrder } from './order-book';

/**
 * A book's open orders by id: arrays instead of a Map, so a lookup is an array read and a
 * comparison inlined where it is made — no call into the Map builtins, no rehash as deleted
 * entries pile up. Most orders are in a ring by id; those that rest long, in a hashed table.
 */
export class OrderIndex {
  /**
   * Recent orders, in the slot of their id modulo its length: the venue hands ids out in
   * sequence, so an order rests in the slot after the last one's (a cache line already read),
   * where the hashed table below spread them over the whole table, a cache miss per add with
   * 10,000 resting orders. An order whose slot a newer id takes moves to `older`.
   */
  private ring = emptySlots(64);
  private ringMask = 63;
  /** Orders pushed out of the ring (those resting longest), hashed. */
  private readonly older = new HashedOrders();
  size = 0;

  get(id: number): BookOrder | undefined {
    const order = this.ring[id & this.ringMask];
    if (order !== undefined && order.id === id) return order;
    return this.older.size === 0 ? undefined : this.older.get(id);
  }

  /** Adds an order whose id is not in the index. */
  add(order: BookOrder): void {
    if (this.size * 2 >= this.ring.length) this.grow();
    const slot = order.id & this.ringMask;
    const pushed = this.ring[slot];
    if (pushed !== undefined) this.older.add(pushed);
    this.ring[slot] = order;
    this.size++;
  }

  /** Removes an order that is in the index. */
  delete(order: BookOrder): void {
    const slot = order.id & this.ringMask;
    if (this.ring[slot] === order) this.ring[slot] = undefined;
    else this.older.delete(order);
    this.size--;
  }

  /** Every order in the index (in no particular order). */
  values(): BookOrder[] {
    const out = this.older.values();
    for (const order of this.ring) if (order !== undefined) out.push(order);
    return out;
  }

  /** A ring twice as long (kept at least twice the orders): its orders go to their new slots. */
  private grow(): void {
    const old = this.ring;
    this.ring = emptySlots(old.length * 2);
    this.ringMask = this.ring.length - 1;
    for (const order of old) {
      if (order === undefined) continue;
      // No two share a new slot: their ids differed modulo the old length, so modulo the new one.
      this.ring[order.id & this.ringMask] = order;
    }
  }
}

/**
 * {@link OrderIndex}'s orders pushed out of its ring: an open-addressing table (linear probing,
 * Fibonacci hashing of the id). Ids come in sequence: the low bits as the slot would pack the
 * recent ones into one long run that every probe walks; the multiplicative hash spreads them.
 * Deleting shifts the entries after it back (no tombstones).
 */
class HashedOrders {
  private slots = emptySlots(64);
  private mask = 63;
  /** 32 − log2(slots). */
  private shift = 26;
  size = 0;

  get(id: number): BookOrder | undefined {
    const slots = this.slots;
    const mask = this.mask;
    for (let i = slotOf(id, this.shift); ; i = (i + 1) & mask) {
      const order = slots[i];
      if (order === undefined || order.id === id) return order;
    }
  }

  /** Adds an order whose id is not in the table. */
  add(order: BookOrder): void {
    if ((this.size + 1) * 2 > this.slots.length) this.grow();
    this.place(order);
    this.size++;
  }

  /** Removes an order that is in the table. */
  delete(order: BookOrder): void {
    const slots = this.slots;
    const mask = this.mask;
    const shift = this.shift;
    let hole = slotOf(order.id, shift);
    while (slots[hole] !== order) hole = (hole + 1) & mask;
    // Backward shift: an entry after the hole moves into it unless its own slot lies after the hole.
    for (let i = (hole + 1) & mask; ; i = (i + 1) & mask) {
      const next = slots[i];
      if (next === undefined) break;
      const home = slotOf(next.id, shift);
      if (hole <= i ? hole < home && home <= i : hole < home || home <= i) continue;
      slots[hole] = next;
      hole = i;
    }
    slots[hole] = undefined;
    this.size--;
  }

  /** Every order in the table (in no particular order). */
  values(): BookOrder[] {
    const out: BookOrder[] = [];
    for (const order of this.slots) if (order !== undefined) out.push(order);
    return out;
  }

  private place(order: BookOrder): void {
    const slots = this.slots;
    const mask = this.mask;
    let i = slotOf(order.id, this.shift);
    while (slots[i] !== undefined) i = (i + 1) & mask;
    slots[i] = order;
  }

  private grow(): void {
    const old = this.slots;
    this.slots = emptySlots(old.length * 2);
    this.mask = this.slots.length - 1;
    this.shift--;
    for (const order of old) if (order !== undefined) this.place(order);
  }
}

/** `length` empty slots, as a packed array (no holes for the reads to check). */
function emptySlots(length: number): (BookOrder | undefined)[] {
  const slots: (BookOrder | undefined)[] = [];
  for (let i = 0; i < length; i++) slots.push(undefined);
  return slots;
}

/** The id's home slot: the top bits of id × 2^32/φ (ids past 2^31 hash by their low 32 bits). */
const slotOf = (id: number, shift: number): number => Math.imul(id | 0, 0x9e3779b1) >>> shift;

/** What {@link LevelIndex} holds: a book level, found by its price as a number. */
export interface Keyed {
  readonly key: number;
}

/**
 * A side's price levels by price: {@link OrderIndex}'s table, keyed by a price (a safe integer,
 * often past 2^32, a multiple of the tick: both halves go into the hash). A level's price is
 * reused as the level empties and refills, so a Map's set and delete ran every few orders.
 */
export class LevelIndex<L extends Keyed> {
  private slots = emptyLevels<L>(64);
  private mask = 63;
  private shift = 26;
  size = 0;

  get(key: number): L | undefined {
    const slots = this.slots;
    const mask = this.mask;
    for (let i = priceSlotOf(key, this.shift); ; i = (i + 1) & mask) {
      const level = slots[i];
      if (level === undefined || level.key === key) return level;
    }
  }

  /** Adds a level whose key is not in the table. */
  add(level: L): void {
    if ((this.size + 1) * 2 > this.slots.length) this.grow();
    this.place(level);
    this.size++;
  }

  /** Removes a level that is in the table (as {@link OrderIndex.delete}). */
  delete(level: L): void {
    const slots = this.slots;
    const mask = this.mask;
    const shift = this.shift;
    let hole = priceSlotOf(level.key, shift);
    while (slots[hole] !== level) hole = (hole + 1) & mask;
    for (let i = (hole + 1) & mask; ; i = (i + 1) & mask) {
      const next = slots[i];
      if (next === undefined) break;
      const home = priceSlotOf(next.key, shift);
      if (hole <= i ? hole < home && home <= i : hole < home || home <= i) continue;
      slots[hole] = next;
      hole = i;
    }
    slots[hole] = undefined;
    this.size--;
  }

  private place(level: L): void {
    const slots = this.slots;
    const mask = this.mask;
    let i = priceSlotOf(level.key, this.shift);
    while (slots[i] !== undefined) i = (i + 1) & mask;
    slots[i] = level;
  }

  private grow(): void {
    const old = this.slots;
    this.slots = emptyLevels<L>(old.length * 2);
    this.mask = this.slots.length - 1;
    this.shift--;
    for (const level of old) if (level !== undefined) this.place(level);
  }
}

function emptyLevels<L>(length: number): (L | undefined)[] {
  const slots: (L | undefined)[] = [];
  for (let i = 0; i < length; i++) slots.push(undefined);
  return slots;
}

/** A price's home slot: its low and high 32 bits mixed, then Fibonacci hashing. */
const priceSlotOf = (key: number, shift: number): number =>
  Math.imul((key | 0) ^ Math.imul((key / 4_294_967_296) | 0, 0x85ebca6b), 0x9e3779b1) >>> shift;
