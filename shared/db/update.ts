/**
 * Builds an UpdateItem expression with placeholder names and values, so attribute names never clash
 * with DynamoDB's reserved words and values never enter the expression text. A path is an attribute
 * name or, for a key of a map attribute, `[attribute, key]`.
 */
export type AttributePath = string | readonly [string, string];

export interface UpdateExpressionParts {
  UpdateExpression: string;
  ExpressionAttributeNames: Record<string, string>;
  ExpressionAttributeValues?: Record<string, unknown>;
}

export class UpdateBuilder {
  private readonly sets: string[] = [];
  private readonly removes: string[] = [];
  private readonly adds: string[] = [];
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

  private path(path: AttributePath): string {
    return typeof path === 'string' ? this.name(path) : `${this.name(path[0])}.${this.name(path[1])}`;
  }

  set(path: AttributePath, value: unknown): this {
    this.sets.push(`${this.path(path)} = ${this.value(value)}`);
    return this;
  }

  /** Sets the path, or removes it when the value is null. */
  setOrRemove(path: AttributePath, value: unknown): this {
    return value === null ? this.remove(path) : this.set(path, value);
  }

  remove(path: AttributePath): this {
    this.removes.push(this.path(path));
    return this;
  }

  add(path: AttributePath, value: number): this {
    this.adds.push(`${this.path(path)} ${this.value(value)}`);
    return this;
  }

  /** The expression and its placeholders; `condition` may use placeholders from `name`/`value`. */
  build(): UpdateExpressionParts {
    const clauses = [
      this.sets.length ? `SET ${this.sets.join(', ')}` : '',
      this.removes.length ? `REMOVE ${this.removes.join(', ')}` : '',
      this.adds.length ? `ADD ${this.adds.join(', ')}` : '',
    ].filter(Boolean);
    return {
      UpdateExpression: clauses.join(' '),
      ExpressionAttributeNames: Object.fromEntries(
        [...this.names].map(([name, placeholder]) => [placeholder, name]),
      ),
      ...(Object.keys(this.values).length ? { ExpressionAttributeValues: { ...this.values } } : {}),
    };
  }
}
