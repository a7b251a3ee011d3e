/**
 * The text of an element as a person reads it, run inside the page: like `innerText` (hidden
 * parts left out, blocks on their own lines, table cells separated by tabs), except that a form
 * field reads as what it holds (a quantity box shows `2`, a drop-down its chosen option, a
 * checkbox `[x]` or `[ ]`), which `innerText` leaves out; a table cell stays on its row's line
 * whatever blocks it holds; and buttons are left out: they are
 * things to do, not what the page says (a cart line reads without its "Remove").
 *
 * Playwright sends the function's source to the page, so it must be self-contained: no helper
 * functions or named inner functions (a bundler's `keepNames` would wrap them in a helper the
 * page does not have), only inline callbacks.
 */
export const pageText = (root: PageNode): string => {
  const out: string[] = [];
  // Nodes to visit, text to write, and +1/-1 on entering/leaving a table cell (whose blocks stay on its line).
  const stack: (PageNode | string | number)[] = [root];
  let cells = 0;
  const view = globalThis as unknown as { getComputedStyle(el: PageNode): { display: string; visibility: string } };
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (typeof node === 'string') {
      out.push(node);
      continue;
    }
    if (typeof node === 'number') {
      cells += node;
      continue;
    }
    // Text and element nodes (Node.TEXT_NODE, Node.ELEMENT_NODE).
    if (node.nodeType === 3) {
      out.push((node.data ?? '').replace(/\s+/g, ' '));
      continue;
    }
    if (node.nodeType !== 1) continue;
    const el = node;
    const style = view.getComputedStyle(el);
    if (style.display === 'none' || style.visibility === 'hidden' || style.visibility === 'collapse') continue;
    const tag = el.tagName;
    if (tag === 'SCRIPT' || tag === 'STYLE' || tag === 'TEMPLATE' || tag === 'NOSCRIPT' || tag === 'BUTTON') continue;
    if (tag === 'BR') {
      out.push('\n');
      continue;
    }
    if (tag === 'INPUT') {
      if (el.type === 'hidden' || el.type === 'submit' || el.type === 'button' || el.type === 'reset' || el.type === 'image') continue;
      out.push(el.type === 'checkbox' || el.type === 'radio' ? (el.checked ? ' [x] ' : ' [ ] ') : ` ${el.value ?? ''} `);
      continue;
    }
    if (tag === 'SELECT') {
      out.push(` ${Array.from(el.selectedOptions ?? [], (o) => o.text).join(', ')} `);
      continue;
    }
    if (tag === 'TEXTAREA') {
      out.push(` ${el.value ?? ''} `);
      continue;
    }
    const display = style.display;
    const inline = display.startsWith('inline') || display === 'contents';
    const cell = display === 'table-cell';
    // An inline box (a label chip, a badge) reads apart from its neighbours; inline text runs on.
    const end = cell ? '\t' : display === 'inline' || display === 'contents' ? '' : inline || cells > 0 ? ' ' : '\n';
    stack.push(end);
    if (cell) stack.push(-1);
    for (let i = el.childNodes.length - 1; i >= 0; i--) stack.push(el.childNodes[i]!);
    if (cell) stack.push(1);
    if (end === '\n' || end === ' ') stack.push(end);
  }
  return out
    .join('')
    .split('\n')
    .map((line) =>
      line
        .replace(/[ \u00a0]+/g, ' ')
        .replace(/ ?\t ?/g, '\t')
        .trim(),
    )
    .filter((line) => line !== '')
    .join('\n');
};

/** The parts of a DOM node `pageText` reads (this code is type-checked without the DOM library). */
export interface PageNode {
  nodeType: number;
  tagName?: string;
  data?: string;
  type?: string;
  value?: string;
  checked?: boolean;
  selectedOptions?: ArrayLike<{ text: string }>;
  childNodes: ArrayLike<PageNode>;
}
