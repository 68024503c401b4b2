// class-transformer keeps the @Type() metadata here; it ships the module without its own typing.
declare module 'class-transformer/cjs/storage' {
  export const defaultMetadataStorage: import('class-transformer/types/MetadataStorage').MetadataStorage;
}
