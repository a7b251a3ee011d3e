import type { Duplex } from 'node:stream';

/**
 * The slice of the pure-JS `x11` client's API SkillDesk calls, typed (the package ships no types).
 * X11Connection wraps it in promises; nothing else should need these.
 */

/** Returning true tells the client the error was handled (it would also emit it otherwise). */
export type Cb<T> = (err: Error | null | undefined, value: T) => boolean | void;

export interface RawProperty {
  type: number;
  format: number;
  bytesAfter: number;
  data: Buffer;
}

export interface RawClient {
  InternAtom(onlyIfExists: boolean, name: string, cb: Cb<number>): void;
  GetProperty(del: 0 | 1, wid: number, prop: number, type: number, longOffset: number, longLength: number, cb: Cb<RawProperty>): void;
  GetGeometry(wid: number, cb: Cb<{ xPos: number; yPos: number; width: number; height: number; borderWidth: number }>): void;
  TranslateCoordinates(src: number, dst: number, x: number, y: number, cb: Cb<{ destX: number; destY: number; child: number }>): void;
  QueryTree(wid: number, cb: Cb<{ root: number; parent: number; children: number[] }>): void;
  GetWindowAttributes(wid: number, cb: Cb<{ mapState: number; overrideRedirect: number }>): void;
  GetInputFocus(cb: Cb<{ focus: number; revertTo: number }>): void;
  SetInputFocus(wid: number, revertTo: number): void;
  RaiseWindow(wid: number): void;
  QueryPointer(wid: number, cb: Cb<{ keyMask: number; rootX: number; rootY: number }>): void;
  GetKeyboardMapping(first: number, count: number, cb: Cb<number[][]>): void;
  ChangeKeyboardMapping(first: number, keysymsPerKeycode: number, keysyms: number[]): void;
  GetModifierMapping(cb: Cb<number[][]>): void;
  SendClientMessage(destination: number, wid: number, type: number, format: 8 | 16 | 32, data: number[], eventMask?: number): void;
  CreateWindow(
    wid: number,
    parent: number,
    x: number,
    y: number,
    width: number,
    height: number,
    border: number,
    depth: number,
    windowClass: number,
    visual: number,
    values: { eventMask?: number; overrideRedirect?: number },
  ): void;
  ChangeWindowAttributes(wid: number, values: { eventMask?: number }): void;
  ChangeProperty(mode: 0 | 1 | 2, wid: number, prop: number, type: number, format: 8 | 16 | 32, data: Buffer): void;
  DeleteProperty(wid: number, prop: number): void;
  GetSelectionOwner(selection: number, cb: Cb<number>): void;
  ConvertSelection(requestor: number, selection: number, target: number, property: number, time: number): void;
  require(ext: 'xtest', cb: Cb<RawXTest>): void;
  require(ext: 'damage', cb: Cb<RawDamage>): void;
  require(ext: 'fixes', cb: Cb<RawFixes>): void;
  AllocID(): number;
  on(event: 'event', listener: (ev: X11Event) => void): void;
  removeListener(event: 'event', listener: (ev: X11Event) => void): void;
  sync(): Promise<void>;
  close(cb?: (err?: Error) => void): void;
  on(event: 'error', listener: (err: Error) => void): void;
  on(event: 'end' | 'close', listener: () => void): void;
}

export interface RawXTest {
  KeyPress: number;
  KeyRelease: number;
  ButtonPress: number;
  ButtonRelease: number;
  MotionNotify: number;
  FakeInput(type: number, detail: number, time: number, wid: number, x: number, y: number): void;
}

export interface RawDamage {
  ReportLevel: { NonEmpty: number };
  Create(damage: number, drawable: number, level: number): void;
  Destroy(damage: number): void;
  Subtract(damage: number, repair: number, parts: number): void;
}

export interface RawFixes {
  SelectSelectionInput(wid: number, selection: number, eventMask: number): void;
}

export interface RawDisplay {
  client: RawClient;
  min_keycode: number;
  max_keycode: number;
  screen: { root: number; pixel_width: number; pixel_height: number }[];
}

export interface X11Module {
  createClient(
    options: { display: string; stream?: Duplex },
    cb: (err: Error | null, display: RawDisplay) => void,
  ): { on(event: 'error', l: (err: Error) => void): void };
}

/** An event as the client parses it; which fields are set depends on `name`. */
export interface X11Event {
  name?: string;
  wid?: number;
  damage?: number;
  atom?: number;
  time?: number;
  state?: number;
  requestor?: number;
  selection?: number;
  target?: number;
  property?: number;
  owner?: number;
  /** XFIXES SelectionNotify only (the core SelectionNotify is also named so). */
  selectionTimestamp?: number;
}
