// Who a person is to a repository, in Loupe's words, as far as the forge says before anyone is
// looked up: the author policy reads it to decide whether an automatic review may start. It is
// never a permission: a member or collaborator may only be able to read (conversation/permission.ts
// asks the forge for write access instead).

/**
 * `owner`: owns the repository. `member`: of the organisation or the project. `collaborator`:
 * invited to the repository. `contributor`: has had changes merged before. `first_timer`: a first
 * contribution, to this repository or to the forge. `none`: none of these, or the forge's word for
 * it is one Loupe does not know (the least trusted reading).
 */
export type AuthorRole = "owner" | "member" | "collaborator" | "contributor" | "first_timer" | "none";
