/**
 * Type and subtype words stored once and referred to by number, both by the tile columns and by the
 * chunks the load threads build. Number 0 is the empty word (a point without a subtype).
 */
export class WordTable {
  readonly words: string[] = [''];
  private readonly numbers = new Map<string, number>([['', 0]]);

  numberOf(word: string): number {
    let n = this.numbers.get(word);
    if (n === undefined) {
      n = this.words.length;
      this.words.push(word);
      this.numbers.set(word, n);
    }
    return n;
  }
}
