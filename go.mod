module ladder

go 1.24

require (
	github.com/hashicorp/go-memdb v1.3.5
	gopkg.in/yaml.v3 v3.0.1
)

require (
	github.com/hashicorp/go-immutable-radix v1.3.1 // indirect
	github.com/hashicorp/golang-lru v0.5.4 // indirect
)
