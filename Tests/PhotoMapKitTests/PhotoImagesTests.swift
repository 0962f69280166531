// SPDX-License-Identifier: Apache-2.0
import PhotoMapModel
import Testing

@testable import PhotoMapKit

@Suite("A photo's compact images")
struct PhotoImagesTests {
    @Test(
        "URLs on Flickr's template and any other URL read back exactly as given, sizes too",
        arguments: [
            "https://live.staticflickr.com/65535/52000000001_abcdef0123_s.jpg",
            "https://live.staticflickr.com/65535/52000000001_abcdef0123.jpg",
            "http://127.0.0.1:8080/mirror/65535/52000000001_abcdef0123_q.png",
            "https://live.staticflickr.com/65535/52000000001_abcdef0123_3k.jpg",
            "https://live.staticflickr.com/65535/52000000001_abcdef0123_s.jpeg",
            "https://live.staticflickr.com/65535/52000000002_abcdef0123_s.jpg",
            "https://live.staticflickr.com/65535/52000000001_abcdef0123_s.jpg?x=1",
            "/65535/52000000001_abcdef0123_s.jpg",
            "not a url at all",
        ])
    func exact(url: String) {
        for (width, height) in [(75, 75), (nil, nil), (Int(Int32.max) + 1, -1)] as [(Int?, Int?)] {
            let image = ImageReference(url: url, width: width, height: height)
            let photo = Photo(
                id: "52000000001", secret: "abcdef0123", server: "65535",
                images: [.square: image, .medium: ImageReference(url: url + "#m")])
            #expect(photo.images[.square] == image)
            #expect(photo.images[.medium]?.url == url + "#m")
            #expect(photo.images[.largeSquare] == nil)
        }
    }

    @Test("a changed id, server or secret leaves the images' URLs as they were")
    func mutation() {
        let url = "https://live.staticflickr.com/65535/1_abc_s.jpg"
        var photo = Photo(id: "1", secret: "abc", server: "65535", images: [.square: ImageReference(url: url)])
        photo.secret = "def"
        photo.id = "2"
        photo.server = "7"
        #expect(photo.images[.square]?.url == url)
        photo.images[.square]?.width = 76
        #expect(photo.images[.square] == ImageReference(url: url, width: 76))
    }

    @Test("a mirror's host replaces Flickr's in templated and kept URLs alike")
    func rehosting() {
        let photo = Photo(
            id: "1", secret: "abc", server: "65535",
            images: [
                .square: ImageReference(url: "https://live.staticflickr.com/65535/1_abc_s.jpg"),
                .medium: ImageReference(url: "https://live.staticflickr.com/other/1.jpg"),
            ])
        let mirrored = photo.rehosted(on: ImageHost(base: "http://127.0.0.1:9"))
        #expect(mirrored.images[.square]?.url == "http://127.0.0.1:9/65535/1_abc_s.jpg")
        #expect(mirrored.images[.medium]?.url == "http://127.0.0.1:9/other/1.jpg")
    }
}

@Suite("The export's table of images placed in this run")
struct PlacedImagesTests {
    @Test("every path reads back exactly, compact or not")
    func roundTrip() {
        let digits = String(repeating: "0123456789abcdef", count: 4)
        let paths: [(String, PhotoSize, String)] = [
            ("1", .square, "site/squares/\(digits).png"),
            ("1", .medium, "site/images/\(digits).jpg"),
            ("2", .square, "squares/\(digits.uppercased()).png"),
            ("2", .medium, "images/\(digits).gif"),
            ("3", .largeSquare, "squares/\(digits).png"),
            ("4", .square, "\(digits).png"),
            ("5", .medium, "x.png"),
        ]
        var placed = PlacedImages()
        placed.reserve(images: paths.count)
        for (photo, size, path) in paths { placed[photo, size] = path }
        for (photo, size, path) in paths { #expect(placed[photo, size] == path) }
        #expect(placed["1", .largeSquare] == nil && placed["6", .square] == nil && placed["4", .medium] == nil)
        placed["1", .square] = "other.png"
        #expect(placed["1", .square] == "other.png")
    }

    @Test("thousands of photos, made room for a batch at a time, each keep their own two images")
    func manyPhotos() {
        func path(_ photo: Int, _ size: PhotoSize) -> String {
            let digits = String(repeating: String(format: "%016x", photo), count: 4)
            return (size == .square ? "squares/" : "images/") + digits + (photo % 2 == 0 ? ".png" : ".jpg")
        }
        var placed = PlacedImages()
        for batch in stride(from: 0, to: 3_000, by: 500) {
            placed.reserve(images: 1_000)
            for photo in batch..<batch + 500 {
                placed[String(photo), .square] = path(photo, .square)
                placed[String(photo), .medium] = path(photo, .medium)
            }
        }
        for photo in 0..<3_000 {
            #expect(placed[String(photo), .square] == path(photo, .square))
            #expect(placed[String(photo), .medium] == path(photo, .medium))
        }
        #expect(placed["3000", .square] == nil)
    }
}
