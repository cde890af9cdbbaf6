// Command manager runs the guestbook controller.
package main

import (
	webappv1 "example.com/nested/api/v1"
)

func main() {
	_ = webappv1.GroupVersion
}
