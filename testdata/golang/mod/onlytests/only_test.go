package onlytests

type OnlyTest struct{}
