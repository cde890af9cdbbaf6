// Package badenc is Latin-1, not UTF-8: the comment says Größe.
package badenc

type T int
