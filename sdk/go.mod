module github.com/fieldhub/fieldhub/sdk

go 1.26.8
