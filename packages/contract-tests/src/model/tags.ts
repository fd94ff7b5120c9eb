/**
 * The service's entity tags with the model's (issue #65): a tag is the same exactly when the body
 * is, so the two pair one to one, and a request's If-None-Match goes to the model in its own tags.
 */
import type { Difference } from './compare.ts';

export class TagPairs {
  /** The service's tags, each with the model's for the same body. */
  private readonly model = new Map<string, string>();
  /** The model's tags, each with the service's. */
  private readonly service = new Map<string, string>();

  /** Whether the model paired this tag of the service's with one of its own. */
  knows(serviceTag: string): boolean {
    return this.model.has(serviceTag);
  }

  /** An If-None-Match of the service's tags in the model's own (a tag never paired is sent as it is). */
  translate(tags: string): string {
    return tags.replace(/(W\/)?"[^"]*"/g, (tag) => this.model.get(tag) ?? tag);
  }

  /** A tag paired before with another is a difference; two new ones are paired. */
  differences(service: Headers, model: Headers): Difference[] {
    const s = service.get('etag');
    const m = model.get('etag');
    if (s === null || m === null) return [];
    const paired = this.model.get(s);
    const back = this.service.get(m);
    if ((paired !== undefined && paired !== m) || (back !== undefined && back !== s))
      return [{ pointer: 'header:etag', service: `${s} (given before for ${back ?? 'another body'})`, model: m }];
    this.model.set(s, m);
    this.service.set(m, s);
    return [];
  }
}
