// The `x11` package ships no type declarations; X11Connection.ts declares the slice it uses.
declare module 'x11';
