// A file-writer thread that never takes up the work (src/output/file-writer.ts must write the files itself).
