/** The error `promise` rejects with, asserted to be a `type`; fails the test if it resolves or rejects otherwise. */
export async function failure<T>(promise: Promise<unknown>, type: new (...args: any[]) => T): Promise<T> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(type);
  return error as T;
}
