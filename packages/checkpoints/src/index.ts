/** File checkpoints: pre-images of Write / Edit / Delete and their rewind. Exports are added as the package grows. */
export {};
