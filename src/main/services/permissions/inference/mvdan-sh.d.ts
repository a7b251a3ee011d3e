// mvdan-sh ships no types; this declares the slice of its GopherJS API the bash analysis uses.
declare module 'mvdan-sh' {
  export interface ShNode {
    Pos(): { Line(): number; Offset(): number };
    End(): { Line(): number; Offset(): number };
    [k: string]: unknown;
  }
  export interface ShSyntax {
    NewParser(...opts: unknown[]): { Parse(src: string, name: string): ShNode };
    Walk(node: ShNode, fn: (n: ShNode | null) => boolean): void;
    NodeType(node: ShNode): string;
    Variant(v: number): unknown;
    LangBash: number;
    LangPOSIX: number;
  }
  const mvdan: { syntax: ShSyntax };
  export default mvdan;
}
