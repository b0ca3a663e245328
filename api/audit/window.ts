// What the embedded audit log keeps in memory, both bounded whatever the log's
// length: the newest entries (a ring) and sparse byte offsets into the file
// (every `stride`-th seq; when there are too many, every other one is dropped
// and the stride doubles), so an older page is one positional read.

/** The newest `capacity` items, oldest first; pushing past it drops the oldest. */
export class RecentWindow<T> {
  private readonly items: (T | undefined)[];
  private start = 0;
  private count = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError('window capacity must be >= 1');
    this.items = new Array<T | undefined>(capacity);
  }

  get size(): number {
    return this.count;
  }

  push(item: T): void {
    if (this.count < this.capacity) {
      this.items[(this.start + this.count) % this.capacity] = item;
      this.count++;
      return;
    }
    this.items[this.start] = item;
    this.start = (this.start + 1) % this.capacity;
  }

  /** Item `i`, 0 being the oldest kept. */
  at(i: number): T {
    if (i < 0 || i >= this.count) throw new RangeError(`no item ${i}`);
    return this.items[(this.start + i) % this.capacity] as T;
  }
}

export interface Mark {
  seq: number;
  /** Byte offset of the line holding `seq`. */
  offset: number;
}

/** A byte range of the file and the lowest seq it can hold. */
export interface Block {
  firstSeq: number;
  start: number;
  end: number;
}

export class SparseMarks {
  private marks: Mark[] = [];

  constructor(
    private strideNow = 256,
    readonly max = 4096,
  ) {
    if (max < 2) throw new RangeError('at least two marks');
  }

  get stride(): number {
    return this.strideNow;
  }

  get size(): number {
    return this.marks.length;
  }

  /** Records where `seq` starts, when it falls on the stride (offsets only grow). */
  note(seq: number, offset: number): void {
    if ((seq - 1) % this.strideNow !== 0) return;
    const last = this.marks.at(-1);
    if (last && (last.offset >= offset || last.seq >= seq)) return;
    this.marks.push({ seq, offset });
    if (this.marks.length <= this.max) return;
    const wider = this.strideNow * 2;
    this.marks = this.marks.filter((m) => (m.seq - 1) % wider === 0);
    this.strideNow = wider;
  }

  /** The blocks of the file before byte `end`, newest first; the first block starts at byte 0. */
  *blocksBefore(end: number): Generator<Block> {
    let blockEnd = end;
    for (let i = this.marks.length - 1; i >= 0; i--) {
      const m = this.marks[i] as Mark;
      if (m.offset >= blockEnd || m.offset === 0) continue;
      yield { firstSeq: m.seq, start: m.offset, end: blockEnd };
      blockEnd = m.offset;
    }
    if (blockEnd > 0) yield { firstSeq: 1, start: 0, end: blockEnd };
  }
}
