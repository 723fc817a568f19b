import { MAX_OTHER_WORDS, MAX_TITLE_WORDS, addressWords, apostropheWords } from './doc';
import { isCoordinateAddress, tokenize } from './fold';

/**
 * The words of documents as term numbers, for the index build. It gives exactly the words of
 * tokenize() and doc.ts (title words first, in order, repeats kept; then apostrophe, type and address
 * words, each once), but reads plain ASCII words char by char: the case is folded on the fly, the word
 * is hashed and looked up in an open-addressing table, and a string is made only for a term not seen
 * before. A million documents would otherwise make and hash some ten million short strings.
 *
 * Words with other characters go through fold() as before, one run at a time: a run is what lies between
 * separators that fold() leaves alone (ASCII punctuation and spaces, and the common ’ – — and no-break
 * space), so folding it alone gives what folding the whole text gives. The one exception, the Greek
 * capital sigma (it lower-cases by what surrounds it), and titles with more words than are kept take
 * the old path for the whole document.
 */

const HASH_SEED = 0x811c9dc5 | 0;
const HASH_PRIME = 0x01000193;

function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  return h ^ (h >>> 13);
}

const APOSTROPHE = 0x27;
const BACKTICK = 0x60;
const RIGHT_QUOTE = 0x2019;
const CAPITAL_SIGMA = 0x3a3;
const APOSTROPHES = /['\u2019`]/g;

/** Char classes below 0x80 (0: a separator). */
const LOWER_OR_DIGIT = 1;
const UPPER = 2;
/** ' and `: a separator, or left out of the words written without apostrophes. */
const ASCII_APOSTROPHE = 3;
const ASCII_CLASS = new Uint8Array(128);
for (let c = 0x30; c <= 0x39; c++) ASCII_CLASS[c] = LOWER_OR_DIGIT;
for (let c = 0x61; c <= 0x7a; c++) ASCII_CLASS[c] = LOWER_OR_DIGIT;
for (let c = 0x41; c <= 0x5a; c++) ASCII_CLASS[c] = UPPER;
ASCII_CLASS[APOSTROPHE] = ASCII_APOSTROPHE;
ASCII_CLASS[BACKTICK] = ASCII_APOSTROPHE;

/** The term dictionary being built: term number -> word, and a hash table word -> term number. */
export class TermTable {
  readonly terms: string[] = [];
  private hashes = new Int32Array(4096);
  /** term number + 1 per slot; 0 is empty. Kept at most half full. */
  private slots = new Int32Array(8192);
  private mask = 8191;

  get size(): number {
    return this.terms.length;
  }

  /** The term of a folded word, added when new. */
  idOf(word: string): number {
    let h = HASH_SEED;
    for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), HASH_PRIME);
    h = mix(h);
    const { slots, hashes, terms, mask } = this;
    let slot = h & mask;
    for (;;) {
      const id = (slots[slot] as number) - 1;
      if (id < 0) return this.insert(slot, h, word);
      if (hashes[id] === h && terms[id] === word) return id;
      slot = (slot + 1) & mask;
    }
  }

  /**
   * The term of text[start, end): `length` ASCII letters and digits, lower-cased, and apostrophes to
   * leave out; `hash` is their hash before mixing, as idOf computes it. Added when new.
   */
  idOfAscii(text: string, start: number, end: number, length: number, hash: number): number {
    const h = mix(hash);
    const { slots, hashes, terms, mask } = this;
    let slot = h & mask;
    for (;;) {
      const id = (slots[slot] as number) - 1;
      if (id < 0) {
        let word = text.slice(start, end);
        if (word.length !== length) word = word.replace(APOSTROPHES, '');
        return this.insert(slot, h, word.toLowerCase());
      }
      if (hashes[id] === h && sameAscii(terms[id] as string, text, start, end, length)) return id;
      slot = (slot + 1) & mask;
    }
  }

  /** Frees the hash table (the terms stay). */
  release(): void {
    this.slots = new Int32Array(2);
    this.hashes = new Int32Array(0);
    this.mask = 1;
  }

  private insert(slot: number, h: number, word: string): number {
    const id = this.terms.length;
    this.terms.push(word);
    if (id === this.hashes.length) {
      const grown = new Int32Array(id * 2);
      grown.set(this.hashes);
      this.hashes = grown;
    }
    this.hashes[id] = h;
    this.slots[slot] = id + 1;
    if (this.terms.length * 2 > this.slots.length) this.rehash();
    return id;
  }

  private rehash(): void {
    const slots = new Int32Array(this.slots.length * 2);
    const mask = slots.length - 1;
    for (let id = 0; id < this.terms.length; id++) {
      let slot = (this.hashes[id] as number) & mask;
      while (slots[slot] !== 0) slot = (slot + 1) & mask;
      slots[slot] = id + 1;
    }
    this.slots = slots;
    this.mask = mask;
  }
}

/** Whether `term` is text[start, end) lower-cased, apostrophes left out. */
function sameAscii(term: string, text: string, start: number, end: number, length: number): boolean {
  if (term.length !== length) return false;
  let k = 0;
  for (let i = start; i < end; i++) {
    let c = text.charCodeAt(i);
    if (c > 0x7f || c === APOSTROPHE || c === BACKTICK) continue;
    if (c <= 0x5a && c >= 0x41) c += 32;
    if (term.charCodeAt(k++) !== c) return false;
  }
  return true;
}

/** The words of a type (doc.ts typeWords) and, once looked up, their terms (-1 before). */
export class TypeTerms {
  readonly ids: Int32Array;
  constructor(readonly words: readonly string[]) {
    this.ids = new Int32Array(words.length).fill(-1);
  }
}

/** Runs of text with characters only fold() reads that are remembered with their words. */
const RUN_CACHE_SIZE = 50_000;

/** How a scan ended. */
const SCAN_OK = 0;
/** MAX_OTHER_WORDS reached: no more other words. */
const SCAN_FULL = 1;
/** The text needs the whole-document path. */
const SCAN_REDO = 2;

const MODE_TITLE = 0;
const MODE_OTHER = 1;
/** Other words of the title written without apostrophes. */
const MODE_APOSTROPHE = 2;

/** Collects the terms of one document after another into `ids`. */
export class DocTerms {
  readonly table = new TermTable();
  /** the terms of the last document: title words first (repeats kept), then other words, each once. */
  readonly ids = new Uint32Array(MAX_TITLE_WORDS + MAX_OTHER_WORDS);
  length = 0;
  titleCount = 0;
  private others = 0;
  /** per term, the stamp of the last document that has it: each other word is taken once. */
  private stamps = new Uint32Array(4096);
  private stamp = 0;
  private apostrophe = false;
  private readonly runs = new Map<string, readonly string[]>();

  /** Collects the terms of a document into `ids`, `length` and `titleCount`. */
  collect(title: string, type: TypeTerms, address: string | null): void {
    this.start();
    if (this.scan(title, MODE_TITLE) === SCAN_REDO) return this.collectWhole(title, type, address);
    let end = SCAN_OK;
    if (this.apostrophe) {
      end = this.scan(title, MODE_APOSTROPHE);
      if (end === SCAN_REDO) return this.collectWhole(title, type, address);
    }
    if (end !== SCAN_FULL) {
      const { words, ids } = type;
      for (let k = 0; k < words.length; k++) {
        if (this.others >= MAX_OTHER_WORDS) return;
        let id = ids[k] as number;
        if (id < 0) ids[k] = id = this.table.idOf(words[k] as string);
        this.addOther(id);
      }
      if (address && !isCoordinateAddress(address) && this.scan(address, MODE_OTHER) === SCAN_REDO)
        this.collectWhole(title, type, address);
    }
  }

  private start(): void {
    this.length = 0;
    this.titleCount = 0;
    this.others = 0;
    this.apostrophe = false;
    if (++this.stamp === 0xffffffff) {
      this.stamps.fill(0);
      this.stamp = 1;
    }
  }

  /** The words as the string functions give them (fold.ts, doc.ts), for what the scan does not read. */
  private collectWhole(title: string, type: TypeTerms, address: string | null): void {
    this.start();
    const words = tokenize(title);
    const titleLength = Math.min(words.length, MAX_TITLE_WORDS);
    for (let i = 0; i < titleLength; i++) this.addTitle(this.table.idOf(words[i] as string));
    for (const list of [apostropheWords(title), type.words, addressWords(address)]) {
      for (const word of list) {
        if (this.others >= MAX_OTHER_WORDS) return;
        this.addOther(this.table.idOf(word));
      }
    }
  }

  private addTitle(id: number): void {
    this.mark(id);
    this.ids[this.length++] = id;
    this.titleCount++;
  }

  private addOther(id: number): void {
    if (id < this.stamps.length && this.stamps[id] === this.stamp) return;
    this.mark(id);
    this.ids[this.length++] = id;
    this.others++;
  }

  private mark(id: number): void {
    if (id >= this.stamps.length) {
      const grown = new Uint32Array(Math.max(id + 1, this.stamps.length * 2));
      grown.set(this.stamps);
      this.stamps = grown;
    }
    this.stamps[id] = this.stamp;
  }

  /** Adds the words of `text`; a title notes whether it has apostrophes. */
  private scan(text: string, mode: number): number {
    const skip = mode === MODE_APOSTROPHE;
    const n = text.length;
    /** the run of word characters (and apostrophes left out) being read, from `start`; -1 between runs. */
    let start = -1;
    /** its ASCII letters and digits, and their hash (lower-cased) */
    let length = 0;
    let hash = HASH_SEED;
    /** whether it has nothing but ASCII letters, digits and apostrophes left out */
    let plain = true;
    for (let i = 0; i <= n; i++) {
      let c = i < n ? text.charCodeAt(i) : 0x20;
      if (c < 0x80) {
        const kind = ASCII_CLASS[c] as number;
        if (kind === LOWER_OR_DIGIT || kind === UPPER) {
          if (start < 0) {
            start = i;
            length = 0;
            hash = HASH_SEED;
            plain = true;
          }
          if (kind === UPPER) c += 32;
          hash = Math.imul(hash ^ c, HASH_PRIME);
          length++;
          continue;
        }
        if (kind === ASCII_APOSTROPHE) {
          if (mode === MODE_TITLE) this.apostrophe = true;
          else if (skip) {
            if (start < 0) {
              start = i;
              length = 0;
              hash = HASH_SEED;
              plain = true;
            }
            continue;
          }
        }
      } else if (c === RIGHT_QUOTE) {
        if (mode === MODE_TITLE) this.apostrophe = true;
        else if (skip) {
          if (start < 0) {
            start = i;
            length = 0;
            hash = HASH_SEED;
            plain = true;
          }
          continue;
        }
      } else if (c !== 0x2013 && c !== 0x2014 && c !== 0xa0) {
        if (c === CAPITAL_SIGMA) return SCAN_REDO;
        // a character only fold() knows what to do with
        if (start < 0) {
          start = i;
          length = 0;
          hash = HASH_SEED;
        }
        plain = false;
        continue;
      }
      // a separator: the run [start, i) ends
      if (start < 0) continue;
      if (plain) {
        if (length > 0) {
          const end = this.word(mode);
          if (end !== SCAN_OK) return end;
          const id = this.table.idOfAscii(text, start, i, length, hash);
          if (mode === MODE_TITLE) this.addTitle(id);
          else this.addOther(id);
        }
      } else {
        let run = text.slice(start, i);
        if (skip) run = run.replace(APOSTROPHES, '');
        for (const word of this.runWords(run)) {
          const end = this.word(mode);
          if (end !== SCAN_OK) return end;
          const id = this.table.idOf(word);
          if (mode === MODE_TITLE) this.addTitle(id);
          else this.addOther(id);
        }
      }
      start = -1;
    }
    return SCAN_OK;
  }

  /** tokenize(run), remembered: the same accented names ('São', 'Bogotá') come back in many addresses. */
  private runWords(run: string): readonly string[] {
    let words = this.runs.get(run);
    if (words === undefined) {
      words = tokenize(run);
      if (this.runs.size >= RUN_CACHE_SIZE) this.runs.clear();
      this.runs.set(run, words);
    }
    return words;
  }

  /** Whether one more word may be taken (before it is looked up: words not taken are not terms). */
  private word(mode: number): number {
    if (mode === MODE_TITLE) return this.titleCount < MAX_TITLE_WORDS ? SCAN_OK : SCAN_REDO;
    return this.others < MAX_OTHER_WORDS ? SCAN_OK : SCAN_FULL;
  }
}
