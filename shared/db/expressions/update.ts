/**
 * Builds an UpdateItem expression with placeholder names and values, so attribute names never clash
 * with DynamoDB's reserved words and values never enter the expression text: the one way the
 * service writes an update expression (entities' modules say what to change, this says how). A path
 * is an attribute name or a list of steps into it: a key of a map attribute (`[attribute, key]`), or
 * an element of a list by index (`['passkeys', 2, 'name']`). Conditions are written with the same
 * placeholders (`name`, `value`, `ref`) and joined by AND.
 */
export type AttributePath = string | readonly [string, ...(string | number)[]];

export interface UpdateExpressionParts {
  UpdateExpression: string;
  ConditionExpression?: string;
  ExpressionAttributeNames: Record<string, string>;
  ExpressionAttributeValues?: Record<string, unknown>;
}

export class UpdateBuilder {
  private readonly sets: string[] = [];
  private readonly removes: string[] = [];
  private readonly adds: string[] = [];
  private readonly deletes: string[] = [];
  private readonly conditions: string[] = [];
  private readonly names = new Map<string, string>();
  private readonly values: Record<string, unknown> = {};

  /** A placeholder for an attribute name (the same name always gets the same one). */
  name(attribute: string): string {
    let placeholder = this.names.get(attribute);
    if (!placeholder) {
      placeholder = `#n${this.names.size}`;
      this.names.set(attribute, placeholder);
    }
    return placeholder;
  }

  /** A placeholder for a value. */
  value(value: unknown): string {
    const placeholder = `:v${Object.keys(this.values).length}`;
    this.values[placeholder] = value;
    return placeholder;
  }

  /** A path as the expressions name it: `#n0.#n1`, `#n0[2].#n1`. */
  ref(path: AttributePath): string {
    if (typeof path === 'string') return this.name(path);
    const [first, ...steps] = path;
    return steps.reduce<string>(
      (text, step) => (typeof step === 'number' ? `${text}[${step}]` : `${text}.${this.name(step)}`),
      this.name(first),
    );
  }

  set(path: AttributePath, value: unknown): this {
    this.sets.push(`${this.ref(path)} = ${this.value(value)}`);
    return this;
  }

  /** Sets the path, or removes it when the value is null. */
  setOrRemove(path: AttributePath, value: unknown): this {
    return value === null ? this.remove(path) : this.set(path, value);
  }

  /** Sets the path unless it holds a value already (the first write wins). */
  setIfAbsent(path: AttributePath, value: unknown): this {
    const ref = this.ref(path);
    this.sets.push(`${ref} = if_not_exists(${ref}, ${this.value(value)})`);
    return this;
  }

  /** Appends elements to a list attribute, which it creates when missing. */
  append(path: AttributePath, elements: unknown[]): this {
    const ref = this.ref(path);
    this.sets.push(`${ref} = list_append(if_not_exists(${ref}, ${this.value([])}), ${this.value(elements)})`);
    return this;
  }

  remove(path: AttributePath): this {
    this.removes.push(this.ref(path));
    return this;
  }

  add(path: AttributePath, value: number | Set<string>): this {
    this.adds.push(`${this.ref(path)} ${this.value(value)}`);
    return this;
  }

  /**
   * Adds `delta` to a counter on condition that the result stays at most `limit` (a counter not yet
   * written passes): quotas and caps that concurrent writes can never pass together.
   */
  addUpTo(path: AttributePath, delta: number, limit: number): this {
    const ref = this.ref(path);
    this.when(`(attribute_not_exists(${ref}) OR ${ref} <= ${this.value(limit - delta)})`);
    return this.add(path, delta);
  }

  /** Takes elements out of a set attribute. */
  deleteFromSet(path: AttributePath, elements: Set<string>): this {
    this.deletes.push(`${this.ref(path)} ${this.value(elements)}`);
    return this;
  }

  /** A condition the write is made on (all of them must hold), written with this builder's placeholders. */
  when(condition: string): this {
    this.conditions.push(condition);
    return this;
  }

  /** The expression, its condition and their placeholders. */
  build(): UpdateExpressionParts {
    const clauses = [
      this.sets.length ? `SET ${this.sets.join(', ')}` : '',
      this.removes.length ? `REMOVE ${this.removes.join(', ')}` : '',
      this.adds.length ? `ADD ${this.adds.join(', ')}` : '',
      this.deletes.length ? `DELETE ${this.deletes.join(', ')}` : '',
    ].filter(Boolean);
    return {
      UpdateExpression: clauses.join(' '),
      ...(this.conditions.length ? { ConditionExpression: this.conditions.join(' AND ') } : {}),
      ExpressionAttributeNames: Object.fromEntries(
        [...this.names].map(([name, placeholder]) => [placeholder, name]),
      ),
      ...(Object.keys(this.values).length ? { ExpressionAttributeValues: { ...this.values } } : {}),
    };
  }
}
