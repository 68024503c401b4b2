/** Who joined and who left between two views of the live members (ids). */
export function membershipDelta(
  before: readonly string[],
  after: readonly string[],
): { joined: string[]; left: string[] } {
  const was = new Set(before);
  const is = new Set(after);
  return { joined: after.filter((id) => !was.has(id)), left: before.filter((id) => !is.has(id)) };
}
