import QRCode from 'qrcode';
import { type Html, trusted } from '@secret-push/html';

/**
 * A QR code as inline SVG, generated on the server by `qrcode` (no script, no third-party service;
 * the pages' CSP allows inline SVG markup). The SVG holds only paths computed from the payload,
 * never its text; it is hidden from screen readers, the pages give the same content as text.
 */
export async function qrSvg(text: string): Promise<Html> {
  const svg = await QRCode.toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return trusted(svg.replace('<svg ', '<svg aria-hidden="true" focusable="false" '));
}
