module specforge.local/test-images

go 1.24
