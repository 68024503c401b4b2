import { XMLParser } from 'fast-xml-parser';

/** A parsed XML element: tag names lowercased, attributes under their own (case-kept) names, text in `#text`. */
export type XmlNode = { readonly [key: string]: unknown };

/** Elements that may repeat; listed so a single occurrence still parses as an array. */
const REPEATED = new Set(['error', 'domaincheckresult', 'host', 'productcategory', 'product', 'price', 'nameserver']);

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  // The docs show <Host>, live responses <host>: compare tags case-insensitively.
  transformTagName: (tag) => tag.toLowerCase(),
  isArray: (tag) => REPEATED.has(tag),
});

const isNode = (value: unknown): value is XmlNode =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The document's root element `tag`, or undefined for anything that is not such an XML document. */
export function parseXml(text: string, tag: string): XmlNode | undefined {
  try {
    const document: unknown = parser.parse(text);
    const root = isNode(document) ? document[tag] : undefined;
    return isNode(root) ? root : undefined;
  } catch {
    return undefined;
  }
}

export function child(node: XmlNode | undefined, tag: string): XmlNode | undefined {
  const value = node?.[tag];
  return isNode(value) ? value : undefined;
}

/** Repeated children; a bare text child (`<Nameserver>ns1</Nameserver>`) becomes `{'#text': ...}`. */
export function children(node: XmlNode | undefined, tag: string): XmlNode[] {
  const value = node?.[tag];
  const list: unknown[] = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return list.map((item) => (isNode(item) ? item : { '#text': typeof item === 'string' ? item : '' }));
}

/** An attribute's value, or '' when absent. */
export function attr(node: XmlNode | undefined, name: string): string {
  const value = node?.[name];
  return typeof value === 'string' ? value : '';
}

/** The text inside child `tag` (`<ExpiredDate>09/05/2016</ExpiredDate>`), or ''. */
export function text(node: XmlNode | undefined, tag: string): string {
  const value = node?.[tag];
  if (typeof value === 'string') return value.trim();
  return isNode(value) ? attr(value, '#text').trim() : '';
}

export const isTrue = (value: string): boolean => value.toLowerCase() === 'true';
