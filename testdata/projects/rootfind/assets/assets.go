// Package assets embeds another project's CRDs, installed beside ours: it declares
// none of their kinds, so they are not this project's to patch.
package assets

import "embed"

//go:embed *.yaml
var CRDs embed.FS
