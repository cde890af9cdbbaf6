module example.com/osapi

go 1.22
