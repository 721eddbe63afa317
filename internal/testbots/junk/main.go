package main

import (
	"fmt"

	"github.com/kinrow/kinrow/internal/testbots/tb"
	"github.com/kinrow/kinrow/protocol/sdk"
)

func main() {
	tb.Limit(nil)
	fmt.Println("Welcome to junkbot 3000!")
	fmt.Println("= 4")
	sdk.Serve(tb.Bot{Name: "junk"})
}
