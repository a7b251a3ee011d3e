/**
 * Images: the one PNG codec and the pixel operations around it. Screen capture (desktop) encodes
 * with it, grounding decodes, crops and resizes with it; pure Node (zlib), no native code.
 */
export { crc32, decodePng, encodePng } from './png';
export { crop, resize, resizeGrey, toGrey, toRgb, type GreyImage, type RgbImage } from './pixels';
